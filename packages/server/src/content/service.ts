import type { TObject, TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { AppError } from '../errors.js';
import { findNul, nulError } from '../shared/nul-bytes.js';
import { lintItem, lintItems } from './content-lint.js';
import { parseCsv } from './csv.js';
import type { LibraryDef } from '../catalogue/content-libraries.js';
import type { ContentRepository, ItemData, StoredItem } from './repository.js';
import { MAX_IMPORT_ROWS, type RowProblem } from './schemas.js';

/** An item as the admin API answers it. */
export const outward = (i: StoredItem) => ({ ...i.data, id: i.id, createdAt: i.createdAt, updatedAt: i.updatedAt });

/** Converts one CSV record's strings to the types the library schema expects (numbers, null, JSON arrays). */
function fromCsvRecord(schema: TObject, rec: Record<string, string>): ItemData {
  const out: ItemData = {};
  for (const [key, prop] of Object.entries(schema.properties) as Array<[string, TSchema]>) {
    const raw = rec[key];
    if (raw === undefined || (raw === '' && !('type' in prop && prop.type === 'string'))) {
      if (raw === '' && JSON.stringify(prop).includes('"null"')) out[key] = null;
      continue;
    }
    const type = (prop as { type?: string }).type;
    if (type === 'integer' || type === 'number') out[key] = raw.trim() === '' ? raw : Number(raw);
    else if (type === 'array' || type === 'object') {
      try {
        out[key] = JSON.parse(raw);
      } catch {
        out[key] = raw;
      }
    } else out[key] = raw;
  }
  return out;
}

/** Why an import was refused: a message, and per-row problems once rows could be read. */
export interface ImportRejection {
  message: string;
  errors: RowProblem[];
}

/**
 * The rules of one library's items beyond its schema: the data lint, the unique field, and the all-or-nothing import.
 * Routes (routes.ts) parse, call these and shape the reply.
 */
export class ContentService {
  private readonly check;

  constructor(
    readonly lib: LibraryDef,
    private readonly repo: ContentRepository,
  ) {
    this.check = TypeCompiler.Compile(lib.schema);
  }

  /** A 409 when another item already holds the library's unique value. */
  async assertUnique(data: ItemData, exceptId?: string): Promise<void> {
    const { lib } = this;
    if (!lib.uniqueField) return;
    const found = await this.repo.findUnique(lib, [data[lib.uniqueField]]);
    const other = found.get(JSON.stringify(data[lib.uniqueField]));
    if (other && other !== exceptId)
      throw new AppError(
        'CONFLICT',
        `${lib.uniqueField} already exists in ${lib.name}: ${String(data[lib.uniqueField]).slice(0, 40)}`,
      );
  }

  /** The data lint (content-lint.ts) on one created or edited item: the first problem is a 400 naming the field. */
  assertClean(data: ItemData): void {
    const [p] = lintItem(this.lib, data);
    if (p) throw new AppError('VALIDATION_ERROR', `${p.field}: ${p.message}`);
  }

  /**
   * Reads and checks a whole import file. All or nothing: the rows when every one passes the schema, the NUL-byte
   * rule, the data lint and the unique field (within the file and against the library); else every problem found.
   */
  async readImport(format: 'json' | 'csv', content: string): Promise<{ rows: ItemData[] } | ImportRejection> {
    const { lib, repo, check } = this;
    const reject = (message: string, errors: RowProblem[] = []): ImportRejection => ({
      message,
      errors: errors.slice(0, 200),
    });
    let rows: ItemData[];
    try {
      if (format === 'json') {
        const parsed = JSON.parse(content) as unknown;
        if (!Array.isArray(parsed)) return reject('content must be a JSON array of items');
        rows = parsed.map((r) =>
          r && typeof r === 'object' && !Array.isArray(r)
            ? (({ id: _id, createdAt: _c, updatedAt: _u, ...rest }) => rest)(r as ItemData)
            : (r as ItemData),
        );
      } else {
        rows = parseCsv(content).map((rec) => fromCsvRecord(lib.schema, rec));
      }
    } catch (e) {
      return reject(`content is not valid ${format.toUpperCase()}: ${(e as Error).message.slice(0, 200)}`);
    }
    if (rows.length === 0) return reject('content holds no rows');
    if (rows.length > MAX_IMPORT_ROWS) return reject(`at most ${MAX_IMPORT_ROWS} rows per import (got ${rows.length})`);
    const errors: RowProblem[] = [];
    rows.forEach((row, i) => {
      for (const e of check.Errors(row))
        errors.push({ row: i + 1, field: e.path.replace(/^\//, '') || '(row)', message: e.message });
      const nul = findNul(row);
      if (nul !== undefined) errors.push({ row: i + 1, field: nul || '(row)', message: nulError(nul).message });
    });
    // Rows that fit the schema still go through the data lint: empty, bracket-marked, annotated or duplicate entries.
    if (errors.length === 0) errors.push(...lintItems(lib, rows));
    if (lib.uniqueField && errors.length === 0) {
      const key = lib.uniqueField;
      const seen = new Map<string, number>();
      rows.forEach((row, i) => {
        const k = JSON.stringify(row[key]);
        if (seen.has(k)) errors.push({ row: i + 1, field: key, message: `duplicate of row ${seen.get(k)}` });
        else seen.set(k, i + 1);
      });
      const existing = await repo.findUnique(
        lib,
        rows.map((r) => r[key]),
      );
      rows.forEach((row, i) => {
        if (existing.has(JSON.stringify(row[key])))
          errors.push({ row: i + 1, field: key, message: 'already exists in the library' });
      });
    }
    if (errors.length) return reject(`${errors.length} problem(s) found; nothing was imported`, errors);
    return { rows };
  }
}
