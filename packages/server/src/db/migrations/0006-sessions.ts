import { sql, type Kysely } from 'kysely';

/**
 * Sessions: one row per sign-in (a refresh-token family; `sessions.id` is the family id), so an operator can see
 * who is signed in where and end one. `end_reason` is the 401 code the session's tokens answer with once it ended.
 * `users.sessions_end_reason` says why token_version was last raised (forced sign-out, new password), so a token of
 * an older version gets the right reason too.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_used_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('user_agent', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('client_kind', 'varchar(16)', (c) => c.notNull().defaultTo('other'))
    .addColumn('device_label', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('ended_at', 'varchar(32)')
    .addColumn('end_reason', 'varchar(32)')
    .addColumn('ended_by', 'varchar(36)')
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires_idx').on('sessions').column('expires_at').execute();
  await db.schema.alterTable('users').addColumn('sessions_end_reason', 'varchar(32)').execute();

  // Sign-ins made before this version: one session per live family, described by its newest token.
  await sql`
    insert into sessions (id, user_id, created_at, last_used_at, expires_at, ip, user_agent, client_kind, device_label)
    select family_id, max(user_id), min(created_at), max(created_at), max(expires_at), max(ip), max(user_agent), 'other', ''
    from refresh_tokens where revoked_at is null group by family_id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('sessions_end_reason').execute();
  await db.schema.dropTable('sessions').ifExists().execute();
}
