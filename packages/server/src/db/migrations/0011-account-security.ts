import type { Kysely } from 'kysely';

/**
 * Account security (issue 10): a password an operator chose must be replaced by its user (must_change_password),
 * TOTP second factor per user (secret pending until confirmed, then enabled), roles that require it, and the
 * single-use recovery codes (stored as SHA-256: they are random, 50 bits each, so a slow hash adds nothing).
 * Flags are integers 0/1 on both dialects.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('users').addColumn('totp_secret', 'varchar(64)').execute();
  await db.schema.alterTable('users').addColumn('totp_enabled_at', 'varchar(32)').execute();
  // The last 30-second step a code was accepted for: the same code is not accepted twice (RFC 6238 §5.2).
  await db.schema.alterTable('users').addColumn('totp_last_step', 'bigint').execute();
  await db.schema
    .alterTable('roles')
    .addColumn('require_totp', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('mfa_recovery_codes')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('mfa_recovery_codes_user').on('mfa_recovery_codes').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mfa_recovery_codes').ifExists().execute();
  await db.schema.alterTable('roles').dropColumn('require_totp').execute();
  for (const c of ['totp_last_step', 'totp_enabled_at', 'totp_secret', 'must_change_password'])
    await db.schema.alterTable('users').dropColumn(c).execute();
}
