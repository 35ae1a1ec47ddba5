import { sql, type Kysely } from 'kysely';

/**
 * Menus get a kind (directory, page, link, embed) and a target (the built-in page's menu code, or a URL), so a menu
 * an operator adds is more than a name. Existing menus: those with children become directories, the rest pages.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('menus')
    .addColumn('kind', 'varchar(16)', (c) => c.notNull().defaultTo('page'))
    .execute();
  await db.schema
    .alterTable('menus')
    .addColumn('target', 'varchar(2048)', (c) => c.notNull().defaultTo(''))
    .execute();
  await sql`update menus set kind = 'directory'
    where id in (select parent_id from menus where parent_id is not null)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('menus').dropColumn('target').execute();
  await db.schema.alterTable('menus').dropColumn('kind').execute();
}
