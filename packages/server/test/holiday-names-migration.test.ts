/**
 * Migration 0021: a database seeded before data/holidays.json named 2017's autumn block as its notice does
 * (中秋节、国庆节, 国办发明电〔2016〕17号) gets the notice's name, unless an operator changed the block.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../src/db/index.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { describeEachDb, freshDb } from './helpers.js';

const block = (name: string, start: string, end: string, work: string[] = []) => ({ name, start, end, work });

describeEachDb('migration 0021 names holiday blocks as their notices do, where nobody edited them', (dialect) => {
  let db: Db;
  const shipped2017 = [
    block('端午节', '2017-05-28', '2017-05-30', ['2017-05-27']),
    block('国庆节、中秋节', '2017-10-01', '2017-10-08', ['2017-09-30']),
  ];
  // An operator moved this copy's make-up day: their edit stays, name included.
  const edited2017 = [block('国庆节、中秋节', '2017-10-01', '2017-10-08', ['2017-09-24'])];
  let revisionBefore = 0;
  beforeAll(async () => {
    db = await freshDb(dialect);
    await migrateToLatest(db, '0019-api-key-revision');
    const at = '2026-01-01T00:00:00.000Z';
    const row = (holidays: object[]) => ({
      id: randomUUID(),
      library: 'holidays',
      data: JSON.stringify({ year: 2017, holidays }),
      search_text: '2017',
      created_at: at,
      updated_at: at,
    });
    await db.kysely
      .insertInto('content_items')
      .values([row(shipped2017), row(edited2017)])
      .execute();
    await db.kysely.insertInto('content_meta').values({ library: 'holidays', seeded_at: at, revision: 3 }).execute();
    revisionBefore = await revision();
    await migrateToLatest(db);
  });
  afterAll(async () => {
    await db.close();
  });

  async function revision() {
    const meta = await db.kysely
      .selectFrom('content_meta')
      .select('revision')
      .where('library', '=', 'holidays')
      .executeTakeFirst();
    return Number(meta?.revision ?? 0);
  }
  const rows = async () =>
    (await db.kysely.selectFrom('content_items').select('data').where('library', '=', 'holidays').execute()).map(
      (r) => (JSON.parse(r.data) as { holidays: object[] }).holidays,
    );

  it('renames the shipped 2017 block 中秋节、国庆节 and bumps the library revision', async () => {
    expect(await rows()).toContainEqual([
      block('端午节', '2017-05-28', '2017-05-30', ['2017-05-27']),
      block('中秋节、国庆节', '2017-10-01', '2017-10-08', ['2017-09-30']),
    ]);
    expect(await revision()).toBe(revisionBefore + 1);
  });

  it('leaves a block an operator edited as it is', async () => {
    expect(await rows()).toContainEqual(edited2017);
  });
});
