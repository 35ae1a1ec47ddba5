import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { openDatabase, type Db } from '../src/db/index.js';
import { testConfig } from './helpers.js';

const PG_URL = process.env.TEST_DATABASE_URL;

/** Rows per table and duplicate natural keys: what "seeded exactly once" means, checked on one database. */
async function seedCounts(db: Db) {
  const count = async (
    table: 'users' | 'roles' | 'menus' | 'role_menus' | 'user_roles' | 'content_items' | 'content_meta',
  ) =>
    Number(
      (
        await db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    users: await count('users'),
    roles: await count('roles'),
    menus: await count('menus'),
    role_menus: await count('role_menus'),
    user_roles: await count('user_roles'),
    content_items: await count('content_items'),
    content_meta: await count('content_meta'),
  };
}

describe.skipIf(!PG_URL)('start-up on PostgreSQL', () => {
  it('two instances starting at once on an empty database migrate and seed exactly once', async () => {
    // What one instance alone seeds (same seed files), as the reference.
    const alone = openDatabase('sqlite::memory:');
    const single = await buildApp({ config: testConfig(), db: alone, logger: false });
    const expected = await seedCounts(alone);
    await single.close();
    await alone.close();

    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    // Two separate pools, like two processes: they share nothing but the database.
    const dbs = [openDatabase(PG_URL!, { searchPath: schema }), openDatabase(PG_URL!, { searchPath: schema })];
    try {
      const config = testConfig();
      const apps = await Promise.all(dbs.map((db) => buildApp({ config, db, logger: false })));
      expect(await seedCounts(dbs[0])).toEqual(expected);
      const dupMenus = await sql<{ code: string }>`select code from menus group by code having count(*) > 1`.execute(
        dbs[0].kysely,
      );
      expect(dupMenus.rows).toEqual([]);
      const migrations = await sql<{ n: string }>`select count(*) as n from kysely_migration`.execute(dbs[1].kysely);
      expect(Number(migrations.rows[0].n)).toBeGreaterThan(0);
      await Promise.all(apps.map((a) => a.close()));
    } finally {
      await Promise.all(dbs.map((db) => db.close()));
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    }
  });
});
