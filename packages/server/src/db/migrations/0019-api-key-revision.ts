import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * A counter on the policy row that every change to what a key may do bumps, from inside the database (as
 * access_revision does for grants, migration 0004). Each instance reads it with the policy at most once a second and
 * forgets its cached keys when it moved, so a revoked key is refused on every instance within about a second, with
 * or without Redis, whoever made the change (an admin route, another instance, a hand-written UPDATE).
 *
 * Only a delete or a write of the columns a cached key is made of bumps it: the usage flush writes last_used_at every
 * few seconds and must not empty every instance's cache, and a new key is in no cache (its secret is new). The policy
 * itself needs no trigger: it is read with the counter.
 */
const KEY_COLUMNS = [
  'secret_hash',
  'old_secret_hash',
  'grace_until',
  'expires_at',
  'revoked_at',
  'per_minute',
  'per_day',
  'groups',
  'origins',
  'addresses',
];

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;
const columns = sql.join(KEY_COLUMNS.map((c) => sql.id(c)));

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('api_key_policy')
    .addColumn('revision', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  // The one place the dialects differ: trigger syntax.
  if (isPostgres(db)) {
    await sql`create function bump_api_key_revision() returns trigger language plpgsql set search_path from current as $$
      begin update api_key_policy set revision = revision + 1 where id = 1; return null; end $$`.execute(db);
    // BEFORE, per statement, as access_revision's: a writer locks the counter before any key row it writes.
    await sql`create trigger api_keys_revision before delete or truncate on api_keys
      for each statement execute function bump_api_key_revision()`.execute(db);
    await sql`create trigger api_keys_update_revision before update of ${columns} on api_keys
      for each statement execute function bump_api_key_revision()`.execute(db);
  } else {
    for (const [name, event] of [
      ['delete', sql`delete`],
      ['update', sql`update of ${columns}`],
    ] as const)
      await sql`create trigger ${sql.id(`api_keys_${name}_revision`)} after ${event} on api_keys
        begin update api_key_policy set revision = revision + 1 where id = 1; end`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger if exists api_keys_revision on api_keys`.execute(db);
    await sql`drop trigger if exists api_keys_update_revision on api_keys`.execute(db);
    await sql`drop function if exists bump_api_key_revision()`.execute(db);
  } else {
    for (const name of ['delete', 'update'])
      await sql`drop trigger if exists ${sql.id(`api_keys_${name}_revision`)}`.execute(db);
  }
  await db.schema.alterTable('api_key_policy').dropColumn('revision').execute();
}
