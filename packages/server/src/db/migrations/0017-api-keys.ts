import { sql, type Kysely } from 'kysely';

/**
 * API keys of public callers (issue 32): the key itself (only the SHA-256 of its secret and a short visible prefix
 * are stored), the operator's require-a-key policy, and usage per key.
 *
 * `api_usage` gains the key dimension: `api_key_id` ('' for anonymous callers) joins the primary key. SQLite cannot
 * change a primary key in place, so the table is rebuilt the same way on both dialects: a new table, the rows copied
 * under api_key_id '', the old one dropped, the new one renamed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('note', 'varchar(255)')
    .addColumn('prefix', 'varchar(16)', (c) => c.notNull())
    .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull().unique())
    // After a rotation: the previous secret's hash, valid until grace_until.
    .addColumn('old_secret_hash', 'varchar(64)')
    .addColumn('grace_until', 'varchar(32)')
    .addColumn('created_by', 'varchar(36)')
    .addColumn('created_by_username', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_used_at', 'varchar(32)')
    .addColumn('expires_at', 'varchar(32)')
    .addColumn('revoked_at', 'varchar(32)')
    .addColumn('per_minute', 'integer')
    .addColumn('per_day', 'integer')
    // JSON arrays of strings, or null for "any".
    .addColumn('groups', 'text')
    .addColumn('origins', 'text')
    .addColumn('addresses', 'text')
    .execute();
  await db.schema.createIndex('api_keys_old_secret_hash').on('api_keys').column('old_secret_hash').execute();

  await db.schema
    .createTable('api_key_policy')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('require_key_groups', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('updated_at', 'varchar(32)')
    .execute();
  await sql`insert into api_key_policy (id, require_key_groups) values (1, '[]')`.execute(db);

  await db.schema
    .createTable('api_usage_by_key')
    .addColumn('api_key_id', 'varchar(36)', (c) => c.notNull().defaultTo(''))
    .addColumn('endpoint', 'varchar(100)', (c) => c.notNull())
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('requests', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('errors', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('caller_errors', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('buckets', 'text', (c) => c.notNull().defaultTo('[]'))
    .addPrimaryKeyConstraint('api_usage_key_pk', ['endpoint', 'day', 'api_key_id'])
    .execute();
  await sql`insert into api_usage_by_key (api_key_id, endpoint, day, requests, errors, caller_errors, buckets)
    select '', endpoint, day, requests, errors, caller_errors, buckets from api_usage`.execute(db);
  await db.schema.dropTable('api_usage').execute();
  await db.schema.alterTable('api_usage_by_key').renameTo('api_usage').execute();
  await db.schema.createIndex('api_usage_key_day').on('api_usage').columns(['api_key_id', 'day']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('api_keys').ifExists().execute();
  await db.schema.dropTable('api_key_policy').ifExists().execute();
}
