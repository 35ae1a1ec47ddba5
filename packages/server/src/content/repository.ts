import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { LibraryDef } from '../catalogue/content-libraries.js';

export type ItemData = Record<string, unknown>;

export interface StoredItem {
  id: string;
  data: ItemData;
  createdAt: string;
  updatedAt: string;
}

/** Lower-cased text of the searchable fields (arrays joined), stored beside the JSON so search is one LIKE. */
export function searchTextOf(lib: LibraryDef, data: ItemData): string {
  return lib.searchFields
    .map((f) => data[f])
    .flatMap((v) => (Array.isArray(v) ? v : [v]))
    .filter((v) => v !== null && v !== undefined)
    .join('\n')
    .toLowerCase();
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

type Row = { id: string; data: string; created_at: string; updated_at: string };
const toItem = (r: Row): StoredItem => ({
  id: r.id,
  data: JSON.parse(r.data) as ItemData,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class ContentRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async list(
    lib: LibraryDef,
    opts: { page: number; pageSize: number; keyword?: string },
  ): Promise<{ items: StoredItem[]; total: number }> {
    const base = this.where(lib, opts.keyword);
    const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const rows = await base
      .select(['id', 'data', 'created_at', 'updated_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(opts.pageSize)
      .offset((opts.page - 1) * opts.pageSize)
      .execute();
    return { items: rows.map(toItem), total: Number(total) };
  }

  async all(lib: LibraryDef, keyword?: string): Promise<StoredItem[]> {
    const rows = await this.where(lib, keyword)
      .select(['id', 'data', 'created_at', 'updated_at'])
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toItem);
  }

  private where(lib: LibraryDef, keyword?: string, db: Kysely<Database> = this.db) {
    let q = db.selectFrom('content_items').where('library', '=', lib.name);
    // An explicit ESCAPE: SQLite has no default escape character, PostgreSQL's is the same backslash.
    if (keyword) q = q.where(sql<boolean>`search_text like ${`%${escapeLike(keyword.toLowerCase())}%`} escape '\\'`);
    return q;
  }

  async get(lib: LibraryDef, id: string): Promise<StoredItem | undefined> {
    const r = await this.db
      .selectFrom('content_items')
      .select(['id', 'data', 'created_at', 'updated_at'])
      .where('library', '=', lib.name)
      .where('id', '=', id)
      .executeTakeFirst();
    return r ? toItem(r) : undefined;
  }

  /** Ids of items whose unique field equals one of `values` (for duplicate checks). */
  async findUnique(lib: LibraryDef, values: unknown[], db: Kysely<Database> = this.db): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    if (!lib.uniqueField || values.length === 0) return found;
    const wanted = new Set(values.map((v) => JSON.stringify(v)));
    const rows = await db.selectFrom('content_items').select(['id', 'data']).where('library', '=', lib.name).execute();
    for (const r of rows) {
      const key = JSON.stringify((JSON.parse(r.data) as ItemData)[lib.uniqueField]);
      if (wanted.has(key)) found.set(key, r.id);
    }
    return found;
  }

  async insertMany(lib: LibraryDef, items: ItemData[], db: Kysely<Database> = this.db): Promise<string[]> {
    const now = Date.now();
    const rows = items.map((data, i) => {
      const at = new Date(now + i).toISOString();
      return {
        id: randomUUID(),
        library: lib.name,
        data: JSON.stringify(data),
        search_text: searchTextOf(lib, data),
        created_at: at,
        updated_at: at,
      };
    });
    for (let i = 0; i < rows.length; i += 500)
      await db
        .insertInto('content_items')
        .values(rows.slice(i, i + 500))
        .execute();
    return rows.map((r) => r.id);
  }

  async update(lib: LibraryDef, id: string, data: ItemData, db: Kysely<Database> = this.db): Promise<boolean> {
    const res = await db
      .updateTable('content_items')
      .set({ data: JSON.stringify(data), search_text: searchTextOf(lib, data), updated_at: new Date().toISOString() })
      .where('library', '=', lib.name)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  async deleteMany(lib: LibraryDef, ids: string[], db: Kysely<Database> = this.db): Promise<number> {
    if (ids.length === 0) return 0;
    const res = await db
      .deleteFrom('content_items')
      .where('library', '=', lib.name)
      .where('id', 'in', ids)
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
