import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/migrate.js';
import { openDatabase } from '../src/db/index.js';

const PG_URL = process.env.TEST_DATABASE_URL;

/**
 * Kysely's migrator looks for its bookkeeping tables by introspecting every column of every schema on the server.
 * When another schema's tables are dropped at that moment, that catalog query fails ("column … of relation … does
 * not exist") before any migration has run: CI saw a test's app fail to start that way while another test file
 * dropped its schema. A start-up must survive other schemas changing around it.
 */
describe.skipIf(!PG_URL)('migrations on a PostgreSQL server whose other schemas change meanwhile', () => {
  it('migrate a fresh schema while another connection creates and drops schemas full of tables', async () => {
    const churn = new pg.Client({ connectionString: PG_URL });
    await churn.connect();
    let stop = false;
    const churning = (async () => {
      while (!stop) {
        const s = `churn_${randomBytes(4).toString('hex')}`;
        const tables = Array.from(
          { length: 40 },
          (_, i) => `create table ${s}.t${i} (id int, created_at text, c${i} int);`,
        );
        await churn.query(`create schema ${s}; ${tables.join(' ')}`);
        await churn.query(`drop schema ${s} cascade`);
      }
    })();
    const failures: string[] = [];
    try {
      for (let i = 0; i < 40; i++) {
        const schema = `mig_${randomBytes(4).toString('hex')}`;
        const admin = new pg.Client({ connectionString: PG_URL });
        await admin.connect();
        await admin.query(`create schema ${schema}`);
        const db = openDatabase(PG_URL!, { searchPath: schema, poolSize: 2 });
        try {
          await migrateToLatest(db);
        } catch (err) {
          failures.push((err as Error).message);
        } finally {
          await db.close();
          await admin.query(`drop schema ${schema} cascade`);
          await admin.end();
        }
      }
    } finally {
      stop = true;
      await churning;
      await churn.end();
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
