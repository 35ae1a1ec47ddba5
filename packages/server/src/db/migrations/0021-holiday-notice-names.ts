import type { Kysely } from 'kysely';
import { correctShippedHolidays } from './holiday-corrections.js';

/**
 * 2017's autumn block under the name its notice gives it (issue 50): 国办发明电〔2016〕17号 item 六 is
 * "中秋节、国庆节：10月1日至8日放假调休", which data/holidays.json had shipped as 国庆节、中秋节. Databases seeded before
 * get the notice's name where the block is still exactly as shipped; an operator's edit stays.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const shipped = { name: '国庆节、中秋节', start: '2017-10-01', end: '2017-10-08', work: ['2017-09-30'] };
  await correctShippedHolidays(db, [{ year: 2017, shipped, corrected: { ...shipped, name: '中秋节、国庆节' } }]);
}

/** The correction is not undone (the earlier name was wrong): down leaves the rows as they are. */
export async function down(): Promise<void> {}
