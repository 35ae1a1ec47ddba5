import { expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/migrate.js';
import { describeEachDb, freshDb } from './helpers.js';

describeEachDb('migration 0017 (API keys)', (dialect) => {
  it('keeps the usage counted before it, as the anonymous callers’ rows', async () => {
    const db = await freshDb(dialect);
    try {
      await migrateToLatest(db, '0015-usage-caller-errors');
      const row = { endpoint: '/api/almanac', day: '2026-11-20', requests: 7, errors: 2, caller_errors: 1 };
      await db.kysely
        .insertInto('api_usage')
        .values({ ...row, buckets: '[1,2]' } as never)
        .execute();
      await migrateToLatest(db);
      const rows = await db.kysely.selectFrom('api_usage').selectAll().execute();
      expect(
        rows.map((r) => ({
          ...r,
          requests: Number(r.requests),
          errors: Number(r.errors),
          caller_errors: Number(r.caller_errors),
        })),
      ).toEqual([{ ...row, api_key_id: '', buckets: '[1,2]' }]);
      // The key is part of the primary key now: the same endpoint and day for a key is a row of its own.
      await db.kysely
        .insertInto('api_usage')
        .values({ ...row, api_key_id: 'k1', buckets: '[]' })
        .execute();
      expect(await db.kysely.selectFrom('api_usage').select('api_key_id').orderBy('api_key_id').execute()).toEqual([
        { api_key_id: '' },
        { api_key_id: 'k1' },
      ]);
    } finally {
      await db.close();
    }
  });
});
