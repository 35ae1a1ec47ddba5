import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Dialect } from '../../db/index.js';
import type { PageQuery } from './schemas.js';

/**
 * Case-insensitive substring match that behaves the same on SQLite (LIKE is case-insensitive for ASCII only) and
 * PostgreSQL (LIKE is case-sensitive): both sides are lower-cased, and `%`, `_` and `\` in the keyword match literally.
 */
export function containsText(column: string, keyword: string): RawBuilder<SqlBool> {
  const pattern = `%${keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}

/** Prefix match (e.g. an address range `10.0.`) with `%`, `_` and `\` in the prefix matched literally; case as stored. */
export function startsWithText(column: string, prefix: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} like ${`${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`;
}

export const offsetOf = (q: PageQuery) => (q.page - 1) * q.pageSize;

/**
 * Locks the selected rows until the transaction ends: FOR NO KEY UPDATE on PostgreSQL. SQLite has no row locks (and
 * no such syntax): there every write transaction runs alone on the single connection, which serialises the same way.
 *
 * Rules that keep PostgreSQL free of deadlocks: take this lock before the transaction's first write (the
 * access_revision triggers of migration 0004 lock their counter row at every write to roles, user_roles, role_menus
 * and menus, so explicit row locks always come first); and NO KEY UPDATE rather than UPDATE, because it does not
 * block the KEY SHARE locks that foreign-key checks take (a grant inserted for a locked menu or role).
 */
export function lockForWrite<Q extends { forNoKeyUpdate(): Q }>(qb: Q, dialect: Dialect): Q {
  return dialect === 'postgres' ? qb.forNoKeyUpdate() : qb;
}

/** Rows for an export are capped so one request cannot build an unbounded file in memory. */
export const EXPORT_LIMIT = 50_000;

/** Unique-constraint violation on either dialect (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_UNIQUE / PRIMARYKEY). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
