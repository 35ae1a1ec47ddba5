import { sql, type Kysely } from 'kysely';
import { SEARCH_FIELDS, searchText } from './frozen-helpers.js';

/** One block of data/holidays.json as a `holidays` content row holds it. */
export interface HolidayBlock {
  name: string;
  start: string;
  end: string;
  work: string[];
}

/** A block an earlier data/holidays.json shipped, and what its notice says it is. */
export interface HolidayCorrection {
  year: number;
  shipped: HolidayBlock;
  corrected: HolidayBlock;
}

/**
 * Gives the holiday rows of a database seeded before a correction of data/holidays.json the corrected blocks: only a
 * block still exactly as shipped changes; a year's other blocks, and a block an operator changed, stay as they are.
 * Bumps the library's revision when a row changed, so running instances reload it.
 */
export async function correctShippedHolidays(db: Kysely<unknown>, corrections: readonly HolidayCorrection[]) {
  const rows = await sql<{ id: string; data: string }>`
    select id, data from content_items where library = 'holidays'`.execute(db);
  let changed = 0;
  for (const row of rows.rows) {
    const data = JSON.parse(row.data) as { year?: unknown; holidays?: unknown };
    if (!Array.isArray(data.holidays)) continue;
    let corrected = false;
    const holidays = data.holidays.map((block: unknown) => {
      const fix = corrections.find((c) => c.year === data.year && JSON.stringify(block) === JSON.stringify(c.shipped));
      if (!fix) return block;
      corrected = true;
      return fix.corrected;
    });
    if (!corrected) continue;
    changed++;
    const json = JSON.stringify({ ...data, holidays });
    const text = searchText(SEARCH_FIELDS.holidays, { ...data, holidays });
    await sql`update content_items set data = ${json}, search_text = ${text} where id = ${row.id}`.execute(db);
  }
  if (changed > 0) await sql`update content_meta set revision = revision + 1 where library = 'holidays'`.execute(db);
}
