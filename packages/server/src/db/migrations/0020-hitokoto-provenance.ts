import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { readDataJson, SEARCH_FIELDS, searchText } from './frozen-helpers.js';

/**
 * Issue 50 for databases seeded before it: the hitokoto library loses its 31 quotations of films, anime, comics and
 * games, files each work under one category (诗经 and 楚辞 from d to i; 论语, 荀子, 礼记 from d to k), re-files the
 * project's own sentences from a/b/c/h to e, gives every row its provenance (`source`) and a true `from`; poems and
 * sentences write variant characters in their standard form (隣 → 邻), and a poem and a couplet whose source lost a
 * character (不容凡鸟坐，应欲俟栖。) are dropped.
 *
 * Only rows nobody edited change: a row whose id and data are exactly as an earlier shipped file had them, recognised
 * by `rowFingerprint` in `data/content/content-0020-changes.json` (generated once by
 * `scripts/build-content-migration.ts`; it lists only rows the current file changes or drops). Such a row becomes
 * the current file's row of the same id, or is deleted when the current file no longer has that id. A row an operator
 * edited or added matches nothing and stays as it is. created_at/updated_at are kept: this is not an operator's edit.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const changes = readDataJson<Record<Library, string[]>>(CHANGES_FILE);
  if (!changes) throw new Error(`缺少数据文件 data/${CHANGES_FILE}（迁移 0020 需要它）`);
  for (const library of LIBRARIES) await bringUpToDate(db, library, new Set(changes[library]));
}

/** The corrections cannot be undone (the earlier rows were not ours to ship, or had the defects): down leaves the rows. */
export async function down(): Promise<void> {}

const CHANGES_FILE = 'content/content-0020-changes.json';
const LIBRARIES = ['hitokoto', 'poems'] as const;
type Library = (typeof LIBRARIES)[number];
type Data = Record<string, unknown>;

/** The seed files as the content libraries had them when this was written (the search fields: frozen-helpers.ts). */
const SEED_FILE: Record<Library, string> = { hitokoto: 'content/hitokoto.json', poems: 'content/poems.json' };

async function bringUpToDate(db: Kysely<unknown>, library: Library, earlier: Set<string>): Promise<void> {
  const shipped = new Map(
    (readDataJson<Array<{ id: string } & Data>>(SEED_FILE[library]) ?? []).map(({ id, ...data }) => [id, data]),
  );
  const rows = await sql<{ id: string; data: string }>`
    select id, data from content_items where library = ${library}`.execute(db);
  let changed = 0;
  for (const row of rows.rows) {
    const data = JSON.parse(row.data) as Data;
    if (!earlier.has(rowFingerprint(row.id, data))) continue;
    const now = shipped.get(row.id);
    if (!now) {
      await sql`delete from content_items where id = ${row.id}`.execute(db);
      changed++;
    } else if (rowFingerprint(row.id, now) !== rowFingerprint(row.id, data)) {
      await sql`update content_items set data = ${JSON.stringify(now)}, search_text = ${searchText(SEARCH_FIELDS[library], now)}
        where id = ${row.id}`.execute(db);
      changed++;
    }
  }
  // Other instances and cached answers notice the library changed.
  if (changed > 0) await sql`update content_meta set revision = revision + 1 where library = ${library}`.execute(db);
}

/**
 * A row's fingerprint as this migration knows it: the first 16 hex digits of the SHA-256 of its id and its fields in
 * key order, so key order in the stored JSON does not matter. Frozen with the changes file: never change it.
 */
export function rowFingerprint(id: string, data: Data): string {
  const fields = Object.keys(data)
    .sort()
    .map((k) => [k, data[k]]);
  return createHash('sha256')
    .update(JSON.stringify([id, fields]))
    .digest('hex')
    .slice(0, 16);
}
