import { sql } from 'kysely';
import type { Db } from './index.js';

/**
 * Runs the start-up work (migrations, first-start seed, content seed) while holding a PostgreSQL advisory lock, so
 * that instances starting at the same time against an empty database do it one after the other: the first one
 * migrates and seeds, the others find everything in place and seed nothing. Kysely's migrator locks only the
 * migrations themselves; the seeds ("insert when missing") would otherwise race and insert twice.
 *
 * The lock is session-level on one pooled connection held for the duration, keyed by the current schema so that
 * deployments (and parallel test runs) in different schemas of one server do not wait for each other.
 * SQLite needs none: one file, and its writers are serialised by the file lock.
 */
export async function withStartupLock<T>(db: Db, work: () => Promise<T>): Promise<T> {
  if (db.dialect !== 'postgres') return work();
  return db.kysely.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(hashtext('tianji:startup:' || current_schema()))`.execute(conn);
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(hashtext('tianji:startup:' || current_schema()))`
        .execute(conn)
        .catch(() => undefined);
    }
  });
}
