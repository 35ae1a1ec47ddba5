import type { Kysely } from 'kysely';

/**
 * Passkeys (WebAuthn credentials, issue 53): only what verifying an assertion needs (the credential id, its public
 * key as COSE bytes in base64url, the signature counter) and what the owner reads in the list (name, device kind,
 * dates). No private key ever reaches the server.
 *
 * Sessions learn how they were opened: `sign_in_method` (password, passkey, device) for the lists and the login log,
 * `amr` (RFC 8176 method references, comma-separated, e.g. `pwd,otp` or `hwk,user`) for the access tokens a refresh
 * issues, and `passkey_id`, so that removing a passkey can end the sessions it opened. Sessions from before this
 * version were all opened with a password.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('passkeys')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // base64url of at most 1023 bytes (WebAuthn's limit): 1364 characters.
    .addColumn('credential_id', 'varchar(1400)', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('transports', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('device_type', 'varchar(16)', (c) => c.notNull().defaultTo('singleDevice'))
    .addColumn('backed_up', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('aaguid', 'varchar(36)', (c) => c.notNull().defaultTo(''))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_used_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('passkeys_user_idx').on('passkeys').column('user_id').execute();
  await db.schema
    .alterTable('sessions')
    .addColumn('sign_in_method', 'varchar(16)', (c) => c.notNull().defaultTo('password'))
    .execute();
  await db.schema
    .alterTable('sessions')
    .addColumn('amr', 'varchar(32)', (c) => c.notNull().defaultTo('pwd'))
    .execute();
  await db.schema.alterTable('sessions').addColumn('passkey_id', 'varchar(36)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const c of ['passkey_id', 'amr', 'sign_in_method'])
    await db.schema.alterTable('sessions').dropColumn(c).execute();
  await db.schema.dropTable('passkeys').ifExists().execute();
}
