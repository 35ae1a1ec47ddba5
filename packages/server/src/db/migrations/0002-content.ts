import type { Kysely } from 'kysely';

/**
 * The content library: every editable text set of the public API (sentences, poems, jokes, holiday schedules…)
 * as JSON rows per library. `content_meta` remembers which libraries were seeded (so deleting every joke does
 * not bring the shipped ones back) and a revision that every change bumps.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('content_items')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('library', 'varchar(32)', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('content_items_library_idx')
    .on('content_items')
    .columns(['library', 'created_at'])
    .execute();

  await db.schema
    .createTable('content_meta')
    .addColumn('library', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('seeded_at', 'varchar(32)')
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('content_meta').ifExists().execute();
  await db.schema.dropTable('content_items').ifExists().execute();
}
