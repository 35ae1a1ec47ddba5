import type { FastifyInstance } from 'fastify';
import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { AppError, notFound } from '../errors.js';
import { LIBRARIES, type LibraryDef } from './libraries.js';
import { contentMenuCode } from '../catalogue.js';
import { ContentRepository, type ItemData, type StoredItem } from './repository.js';
import { parseCsv } from './csv.js';
import { lintItem, lintItems } from './content-lint.js';
import { sendCsv } from '../shared/csv.js';
import { findNul, nulError } from '../shared/nul-bytes.js';

const TAG = '内容管理 Content';
const Paging = Type.Object({
  page: Type.Integer({ minimum: 1, maximum: 100000, default: 1 }),
  pageSize: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  keyword: Type.Optional(Type.String({ maxLength: 100 })),
});
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const Ids = Type.Object(
  { ids: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 500 }) },
  { additionalProperties: false },
);
const ImportBody = Type.Object(
  {
    format: Type.Union([Type.Literal('json'), Type.Literal('csv')], {
      description: 'json: an array of items; csv: a header row with the item fields',
    }),
    content: Type.String({ minLength: 1, maxLength: 5 * 1024 * 1024 }),
  },
  { additionalProperties: false },
);
const RowError = Type.Object({ row: Type.Integer(), field: Type.String(), message: Type.String() });
// `errors` only when rows were checked: a body that fails before that (schema, NUL bytes) has the plain admin error shape.
const ImportErrorSchema = Type.Object({
  code: Type.String(),
  message: Type.String(),
  errors: Type.Optional(Type.Array(RowError)),
});
const MAX_IMPORT_ROWS = 20000;

const itemSchema = (lib: LibraryDef) =>
  Type.Intersect([Type.Object({ id: Type.String(), createdAt: Type.String(), updatedAt: Type.String() }), lib.schema]);
const outward = (i: StoredItem) => ({ ...i.data, id: i.id, createdAt: i.createdAt, updatedAt: i.updatedAt });

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

/** The admin routes of one library: list, get, create, edit, delete, batch delete, export, import. */
function libraryRoutes(lib: LibraryDef) {
  const menu = contentMenuCode(lib.name);
  const check = TypeCompiler.Compile(lib.schema);
  const columns = Object.keys(lib.schema.properties);

  return async (app: FastifyInstance) => {
    const repo = new ContentRepository(app.db.kysely);
    const store = app.content;
    const uniqueConflict = async (data: ItemData, exceptId?: string) => {
      if (!lib.uniqueField) return;
      const found = await repo.findUnique(lib, [data[lib.uniqueField]]);
      const other = found.get(JSON.stringify(data[lib.uniqueField]));
      if (other && other !== exceptId)
        throw new AppError(
          'CONFLICT',
          `${lib.uniqueField} already exists in ${lib.name}: ${String(data[lib.uniqueField]).slice(0, 40)}`,
        );
    };
    /** The data lint (content-lint.ts) on one created or edited item: the first problem is a 400 naming the field. */
    const lintOne = (data: ItemData) => {
      const [p] = lintItem(lib, data);
      if (p) throw new AppError('VALIDATION_ERROR', `${p.field}: ${p.message}`);
    };
    const schema = (extra: object) => ({ tags: [TAG], ...extra });

    app.get(
      '/',
      {
        config: { auth: { menu, bits: ['SEARCH'] } },
        schema: schema({
          summary: `List ${lib.label}`,
          querystring: Paging,
          response: {
            200: Type.Object({
              data: Type.Object({
                items: Type.Array(itemSchema(lib)),
                total: Type.Integer(),
                page: Type.Integer(),
                pageSize: Type.Integer(),
              }),
            }),
          },
        }),
      },
      async (req) => {
        const q = req.query as Static<typeof Paging>;
        const { items, total } = await repo.list(lib, q);
        return { data: { items: items.map(outward), total, page: q.page, pageSize: q.pageSize } };
      },
    );

    app.get(
      '/export',
      {
        config: { auth: { menu, bits: ['EXPORT'] } },
        schema: schema({
          summary: `Export ${lib.label} (CSV with BOM, or JSON)`,
          querystring: Type.Object({
            format: Type.Union([Type.Literal('csv'), Type.Literal('json')], { default: 'csv' }),
            keyword: Type.Optional(Type.String({ maxLength: 100 })),
          }),
        }),
      },
      async (req, reply) => {
        const q = req.query as { format: 'csv' | 'json'; keyword?: string };
        const items = await repo.all(lib, q.keyword);
        await app.audit(req, 'content.export', lib.name, null, { count: items.length, format: q.format });
        if (q.format === 'json') {
          reply.header('content-disposition', `attachment; filename="${lib.name}.json"`);
          return reply.type('application/json; charset=utf-8').send(
            JSON.stringify(
              items.map((i) => ({ id: i.id, ...i.data })),
              null,
              2,
            ),
          );
        }
        const cell = (v: unknown) =>
          v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : (v as string | number);
        return sendCsv(
          reply,
          `${lib.name}.csv`,
          ['id', ...columns].map((c) => ({ header: c, value: (r: Record<string, unknown>) => cell(r[c]) })),
          items.map((i) => ({ id: i.id, ...i.data })),
        );
      },
    );

    app.get(
      '/:id',
      {
        config: { auth: { menu, bits: ['SEARCH'] } },
        schema: schema({
          summary: `Get one ${lib.label} item`,
          params: IdParams,
          response: { 200: Type.Object({ data: itemSchema(lib) }) },
        }),
      },
      async (req) => {
        const item = await repo.get(lib, (req.params as { id: string }).id);
        if (!item) throw notFound(`${lib.name} item`);
        return { data: outward(item) };
      },
    );

    app.post(
      '/',
      {
        config: { auth: { menu, bits: ['ADD'] } },
        schema: schema({
          summary: `Add a ${lib.label} item`,
          body: lib.schema,
          response: { 201: Type.Object({ data: itemSchema(lib) }) },
        }),
      },
      async (req, reply) => {
        const data = req.body as ItemData;
        lintOne(data);
        await uniqueConflict(data);
        const [id] = await repo.insertMany(lib, [data]);
        await app.audit(req, 'content.create', lib.name, id);
        await store.changed(lib.name);
        return reply.code(201).send({ data: outward((await repo.get(lib, id))!) });
      },
    );

    app.put(
      '/:id',
      {
        config: { auth: { menu, bits: ['EDIT'] } },
        schema: schema({
          summary: `Edit a ${lib.label} item (full replacement)`,
          params: IdParams,
          body: lib.schema,
          response: { 200: Type.Object({ data: itemSchema(lib) }) },
        }),
      },
      async (req) => {
        const { id } = req.params as { id: string };
        const data = req.body as ItemData;
        lintOne(data);
        await uniqueConflict(data, id);
        if (!(await repo.update(lib, id, data))) throw notFound(`${lib.name} item`);
        await app.audit(req, 'content.update', lib.name, id);
        await store.changed(lib.name);
        return { data: outward((await repo.get(lib, id))!) };
      },
    );

    app.delete(
      '/:id',
      {
        config: { auth: { menu, bits: ['DELETE'] } },
        schema: schema({ summary: `Delete a ${lib.label} item`, params: IdParams }),
      },
      async (req, reply) => {
        const { id } = req.params as { id: string };
        if ((await repo.deleteMany(lib, [id])) === 0) throw notFound(`${lib.name} item`);
        await app.audit(req, 'content.delete', lib.name, id);
        await store.changed(lib.name);
        return reply.code(204).send();
      },
    );

    app.post(
      '/batch-delete',
      {
        config: { auth: { menu, bits: ['BATCH_DELETE'] } },
        schema: schema({
          summary: `Delete several ${lib.label} items`,
          body: Ids,
          response: { 200: Type.Object({ data: Type.Object({ deleted: Type.Integer() }) }) },
        }),
      },
      async (req) => {
        const { ids } = req.body as Static<typeof Ids>;
        const deleted = await repo.deleteMany(lib, ids);
        await app.audit(req, 'content.batch-delete', lib.name, null, { ids, deleted });
        await store.changed(lib.name);
        return { data: { deleted } };
      },
    );

    app.post(
      '/import',
      {
        bodyLimit: 6 * 1024 * 1024,
        config: { auth: { menu, bits: ['ADD'] } },
        schema: schema({
          summary: `Bulk import ${lib.label} (JSON or CSV)`,
          description:
            'All or nothing: every row is validated first; any malformed row (or a duplicate) rejects the whole file with a per-row error list, and nothing is imported.',
          body: ImportBody,
          response: { 200: Type.Object({ data: Type.Object({ imported: Type.Integer() }) }), 400: ImportErrorSchema },
        }),
      },
      async (req, reply) => {
        const { format, content } = req.body as Static<typeof ImportBody>;
        const reject = (message: string, errors: Array<Static<typeof RowError>> = []) =>
          reply.code(400).send({ code: 'VALIDATION_ERROR', message, errors: errors.slice(0, 200) });
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
        if (rows.length > MAX_IMPORT_ROWS)
          return reject(`at most ${MAX_IMPORT_ROWS} rows per import (got ${rows.length})`);
        const errors: Array<Static<typeof RowError>> = [];
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
        await app.db.kysely.transaction().execute(async (trx) => {
          await repo.insertMany(lib, rows, trx);
          await app.audit(req, 'content.import', lib.name, null, { format, count: rows.length }, trx);
        });
        await store.changed(lib.name);
        return { data: { imported: rows.length } };
      },
    );
  };
}

/** Mounts every library's admin routes under /api/admin/content/<library>. */
export default async function contentRoutes(app: FastifyInstance) {
  for (const lib of LIBRARIES) await app.register(libraryRoutes(lib), { prefix: `/${lib.name}` });
}
