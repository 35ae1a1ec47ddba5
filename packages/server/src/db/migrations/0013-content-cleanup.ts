import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { readDataJson, SEARCH_FIELDS, searchText } from './frozen-helpers.js';
import { correctShippedHolidays, type HolidayCorrection } from './holiday-corrections.js';

/**
 * Content corrections of issue 27 for databases seeded before them: the poems (below) and four holiday blocks.
 *
 * Brings the poems an installation seeded from an earlier data/content/poems.json (6,000 poems, then 5,670) to the
 * cleaned file (issue 27): authors cut at a rare character restored (向 → 向滈), a placeholder line, reversed quotes,
 * one poem in two editions or under two authors kept once, and a fixed id for every poem (1,495 were seeded under
 * random ids, so `poemId` differed between installations).
 *
 * Only rows nobody edited change: a row whose poem is still exactly as one of those files shipped it, recognised by
 * `poemFingerprint`. `data/content/poems-0013-changes.json` maps each such fingerprint to what the row becomes:
 * `null` (left out of the file: deleted), an id (the same poem under its fixed id), or `[id, poem]` (corrected).
 * Generated once by `scripts/build-poem-migration.mjs`; a row an operator edited or added matches nothing and stays.
 * When the fixed id is already taken by another row, the row keeps its id and only its text is corrected.
 * created_at/updated_at are kept: the correction is not an operator's edit.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await cleanPoems(db);
  await correctShippedHolidays(db, HOLIDAY_CORRECTIONS);
}

async function cleanPoems(db: Kysely<unknown>): Promise<void> {
  const changes = readDataJson<{ changes: Record<string, Change> }>(CHANGES_FILE)?.changes;
  if (!changes) throw new Error(`缺少数据文件 data/${CHANGES_FILE}（迁移 0013 需要它）`);
  const rows = await sql<{ id: string; data: string }>`
    select id, data from content_items where library = 'poems' order by created_at, id`.execute(db);
  const taken = new Set((await sql<{ id: string }>`select id from content_items`.execute(db)).rows.map((r) => r.id));
  let changed = 0;
  for (const row of rows.rows) {
    const change = changes[poemFingerprint(JSON.parse(row.data) as PoemData)];
    if (change === undefined) continue;
    changed++;
    if (change === null) {
      await sql`delete from content_items where id = ${row.id}`.execute(db);
      taken.delete(row.id);
      continue;
    }
    const [id, poem] = typeof change === 'string' ? [change, undefined] : change;
    const newId = id === row.id || taken.has(id) ? row.id : id;
    const data = poem ? JSON.stringify(poem) : row.data;
    const text = searchText(SEARCH_FIELDS.poems, JSON.parse(data) as Record<string, unknown>);
    await sql`update content_items set id = ${newId}, data = ${data}, search_text = ${text}
      where id = ${row.id}`.execute(db);
    taken.delete(row.id);
    taken.add(newId);
  }
  // Other instances and cached answers notice the library changed.
  if (changed > 0) await sql`update content_meta set revision = revision + 1 where library = 'poems'`.execute(db);
}

/**
 * Blocks that joined a weekend day their notice does not give (data/README.md, holidays.json): 2015 中秋节 is
 * 9月27日 only (国办发明电〔2014〕28号). A block still exactly as shipped gets the notice's first day; a year's other
 * blocks, and a block an operator changed, stay as they are.
 */
const HOLIDAY_CORRECTIONS: HolidayCorrection[] = [
  { year: 2015, shipped: { name: '清明节', start: '2015-04-04', end: '2015-04-06', work: [] }, start: '2015-04-05' },
  { year: 2015, shipped: { name: '中秋节', start: '2015-09-26', end: '2015-09-27', work: [] }, start: '2015-09-27' },
  { year: 2016, shipped: { name: '劳动节', start: '2016-04-30', end: '2016-05-02', work: [] }, start: '2016-05-01' },
  { year: 2017, shipped: { name: '元旦', start: '2016-12-31', end: '2017-01-02', work: [] }, start: '2017-01-01' },
].map(({ year, shipped, start }) => ({ year, shipped, corrected: { ...shipped, start } }));

/** The corrections cannot be undone (the earlier text had the defects): down leaves the rows as they are. */
export async function down(): Promise<void> {}

const CHANGES_FILE = 'content/poems-0013-changes.json';

type PoemData = { title?: unknown; author?: unknown; dynasty?: unknown; lines?: unknown; featured?: unknown };
type Change = null | string | [string, PoemData];

/**
 * A poem's fingerprint as this migration knows it: the first 16 hex digits of the SHA-256 of its fields in a fixed
 * order, so key order in the stored JSON does not matter. Frozen with the changes file: never change it.
 */
export function poemFingerprint(p: PoemData): string {
  const canonical = JSON.stringify([p.title, p.author, p.dynasty, p.lines, p.featured ?? null]);
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}
