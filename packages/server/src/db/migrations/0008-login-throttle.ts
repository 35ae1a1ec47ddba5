import type { Kysely } from 'kysely';

/**
 * Sign-in failure counters (admin/auth/throttle.ts), in the database so every instance shares them and the operator
 * CLI (`unlock`, `reset-password`) can clear them whether or not Redis is configured.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('login_failures')
    .addColumn('key', 'varchar(200)', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_failure_at', 'varchar(32)')
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('login_failures').ifExists().execute();
}
