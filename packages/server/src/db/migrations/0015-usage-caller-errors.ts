import type { Kysely } from 'kysely';

/**
 * Public API usage: of the failed answers (`errors`), how many were the caller's doing (a bad or unknown parameter,
 * an unknown path, a rate limit), so a typo no longer reads as a server fault. Rows from before count 0.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('api_usage')
    .addColumn('caller_errors', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_usage').dropColumn('caller_errors').execute();
}
