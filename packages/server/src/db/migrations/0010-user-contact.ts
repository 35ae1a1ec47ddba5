import type { Kysely } from 'kysely';

/** A user's own contact details, edited on the profile page (PATCH /api/auth/profile). Empty when not given. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('email', 'varchar(254)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('phone', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('phone').execute();
  await db.schema.alterTable('users').dropColumn('email').execute();
}
