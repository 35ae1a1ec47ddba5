import type { Kysely } from 'kysely';

/**
 * When the holder of a session last proved who they are (the current password, or a TOTP code) after signing in:
 * account-security changes ask for a proof no older than a few minutes (admin/auth/reauth.ts). Null: only the
 * sign-in itself, at created_at.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('reauthenticated_at', 'varchar(32)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('reauthenticated_at').execute();
}
