import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './index.js';
import * as m0001 from './migrations/0001-admin.js';
import * as m0002 from './migrations/0002-content.js';
import * as m0003 from './migrations/0003-usage.js';
import * as m0004 from './migrations/0004-access-revision.js';
import * as m0005 from './migrations/0005-username-key.js';
import * as m0006 from './migrations/0006-sessions.js';
import * as m0007 from './migrations/0007-login-log.js';
import * as m0008 from './migrations/0008-login-throttle.js';
import * as m0009 from './migrations/0009-menu-kind.js';
import * as m0010 from './migrations/0010-user-contact.js';
import * as m0011 from './migrations/0011-account-security.js';
import * as m0012 from './migrations/0012-role-name-unique.js';
import * as m0013 from './migrations/0013-content-cleanup.js';
import * as m0014 from './migrations/0014-hitokoto-classics.js';
import * as m0015 from './migrations/0015-usage-caller-errors.js';
import * as m0016 from './migrations/0016-super-admin-description.js';

import * as m0017 from './migrations/0017-api-keys.js';
import * as m0018 from './migrations/0018-session-reauth.js';
import * as m0019 from './migrations/0019-api-key-revision.js';
import * as m0020 from './migrations/0020-hitokoto-provenance.js';
import * as m0021 from './migrations/0021-holiday-notice-names.js';
import * as m0022 from './migrations/0022-passkeys.js';
import * as m0023 from './migrations/0023-device-authorizations.js';

/**
 * Migrations are listed in code (not read from a folder) so the same list runs from the sources under tsx
 * and from the compiled dist. Add new ones at the end; names sort in order.
 */
const migrations: Record<string, Migration> = {
  '0001-admin': m0001,
  '0002-content': m0002,
  '0003-usage': m0003,
  '0004-access-revision': m0004,
  '0005-username-key': m0005,
  '0006-sessions': m0006,
  '0007-login-log': m0007,
  '0008-login-throttle': m0008,
  '0009-menu-kind': m0009,
  '0010-user-contact': m0010,
  '0011-account-security': m0011,
  '0012-role-name-unique': m0012,
  '0013-content-cleanup': m0013,
  '0014-hitokoto-classics': m0014,
  '0015-usage-caller-errors': m0015,
  '0016-super-admin-description': m0016,
  '0017-api-keys': m0017,
  '0018-session-reauth': m0018,
  '0019-api-key-revision': m0019,
  '0020-hitokoto-provenance': m0020,
  '0021-holiday-notice-names': m0021,
  '0022-passkeys': m0022,
  '0023-device-authorizations': m0023,
};

/** The migrations this code knows, in order: a database's schema version is the list it has applied. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(migrations);

class ListedMigrations implements MigrationProvider {
  async getMigrations() {
    return migrations;
  }
}

/**
 * Brings the schema up to date; runs at start-up. Throws with the failing migration's name.
 * `upTo` stops after the named migration (tests of a migration prepare data in the schema before it).
 */
export async function migrateToLatest(db: Db, upTo?: string): Promise<void> {
  // Kysely looks for its bookkeeping tables in every schema unless told which: on a PostgreSQL server with other
  // schemas (parallel test runs, a shared database) it would find another schema's and skip creating its own.
  const migrationTableSchema =
    db.dialect === 'postgres'
      ? (await sql<{ s: string }>`select current_schema() as s`.execute(db.kysely)).rows[0].s
      : undefined;
  const migrator = new Migrator({ db: db.kysely, provider: new ListedMigrations(), migrationTableSchema });
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await (upTo ? migrator.migrateTo(upTo) : migrator.migrateToLatest());
    if (!error) return;
    const failed = results?.find((r) => r.status === 'Error');
    // Before any migration runs, Kysely looks for its bookkeeping tables by introspecting every column of every
    // schema on the server; another schema dropped at that moment fails that catalog query ("schema … does not
    // exist", "column … of relation … does not exist"). That is someone else's change, so it is tried again; a
    // failing migration of our own is not.
    if (!failed && attempt < 5 && VANISHED_OBJECT.has((error as { code?: string }).code ?? '')) continue;
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${(error as Error).message ?? error}`);
  }
}

/** PostgreSQL error codes of a catalog object that disappeared mid-query: schema, table or column. */
const VANISHED_OBJECT = new Set(['3F000', '42P01', '42703']);
