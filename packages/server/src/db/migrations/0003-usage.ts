import type { Kysely } from 'kysely';

/** Public API usage per endpoint and day (Asia/Shanghai): counts and a latency histogram, flushed from memory. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('api_usage')
    .addColumn('endpoint', 'varchar(100)', (c) => c.notNull())
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('requests', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('errors', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('buckets', 'text', (c) => c.notNull().defaultTo('[]'))
    .addPrimaryKeyConstraint('api_usage_pk', ['endpoint', 'day'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('api_usage').ifExists().execute();
}
