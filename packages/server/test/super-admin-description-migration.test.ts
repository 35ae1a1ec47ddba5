import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../src/db/index.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { seedDatabase } from '../src/admin/seed.js';
import { describeEachDb, freshDb } from './helpers.js';

const ENGLISH = 'Built-in: all permissions on every menu';
const CHINESE = '内置角色：拥有所有菜单的全部权限';
const SEEDED_AT = '2026-01-01T00:00:00.000Z';

/** A database at 0015 whose super-admin role has `description`, then migrated to the latest. */
async function installWith(dialect: Parameters<typeof freshDb>[0], description: string): Promise<Db> {
  const db = await freshDb(dialect);
  await migrateToLatest(db, '0015-usage-caller-errors');
  const role = (code: string, name: string, text: string) => ({
    id: randomUUID(),
    code,
    name,
    description: text,
    status: 'enabled' as const,
    sort: 0,
    require_totp: 0,
    created_at: SEEDED_AT,
    updated_at: SEEDED_AT,
  });
  await db.kysely
    .insertInto('roles')
    .values([role('super_admin', '超级管理员', description), role('copy', '抄写员', ENGLISH)])
    .execute();
  await migrateToLatest(db);
  return db;
}

const roleNow = async (db: Db, code: string) =>
  db.kysely
    .selectFrom('roles')
    .select(['description', 'updated_at'])
    .where('code', '=', code)
    .executeTakeFirstOrThrow();

describeEachDb(
  'migration 0016 describes the super-admin role in Chinese where the seed text was never edited',
  (dialect) => {
    let seeded: Db;
    let edited: Db;
    beforeAll(async () => {
      seeded = await installWith(dialect, ENGLISH);
      edited = await installWith(dialect, 'Built-in: all permissions on every menu (ours)');
    });
    afterAll(async () => {
      await seeded.close();
      await edited.close();
    });

    it('rewrites the English seed text to the current Chinese one, keeping updated_at', async () => {
      expect(await roleNow(seeded, 'super_admin')).toEqual({ description: CHINESE, updated_at: SEEDED_AT });
    });

    it('leaves a description an operator changed, and other roles with the same text, as they are', async () => {
      expect((await roleNow(edited, 'super_admin')).description).toBe('Built-in: all permissions on every menu (ours)');
      expect((await roleNow(seeded, 'copy')).description).toBe(ENGLISH);
    });

    it('writes what a fresh install is seeded with', async () => {
      const fresh = await freshDb(dialect);
      try {
        await migrateToLatest(fresh);
        await seedDatabase(fresh.kysely, { adminUsername: 'admin', adminPassword: 'Correct-Horse-9' });
        expect((await roleNow(fresh, 'super_admin')).description).toBe(CHINESE);
      } finally {
        await fresh.close();
      }
    });
  },
);
