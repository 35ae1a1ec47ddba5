import { sql, type Kysely } from 'kysely';

/**
 * Installs seeded before the seed described the super-admin role in Chinese (issue 28) still show the English text.
 * Rewrites it only where it is still exactly what the seed wrote: a description an operator changed stays theirs.
 * Both texts are frozen here (not imported from the seed), so a later change to the seed does not change this step.
 * updated_at is kept: the correction is not an operator's edit.
 */
const OLD = 'Built-in: all permissions on every menu';
const NEW = '内置角色：拥有所有菜单的全部权限';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update roles set description = ${NEW} where code = 'super_admin' and description = ${OLD}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update roles set description = ${OLD} where code = 'super_admin' and description = ${NEW}`.execute(db);
}
