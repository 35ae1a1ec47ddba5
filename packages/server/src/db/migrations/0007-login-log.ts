import type { Kysely } from 'kysely';

/** The login log: every sign-in attempt, sign-out and session end (admin/login-log). Pruned after LOGIN_LOG_RETENTION. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('login_logs')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('event', 'varchar(32)', (c) => c.notNull())
    .addColumn('result', 'varchar(16)', (c) => c.notNull())
    .addColumn('reason', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('username', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('user_id', 'varchar(36)')
    .addColumn('session_id', 'varchar(36)')
    .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('user_agent', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('device_label', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('client_kind', 'varchar(16)', (c) => c.notNull().defaultTo('other'))
    .addColumn('actor_id', 'varchar(36)')
    .addColumn('actor_username', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('login_logs_created_idx').on('login_logs').column('created_at').execute();
  await db.schema.createIndex('login_logs_user_idx').on('login_logs').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('login_logs').ifExists().execute();
}
