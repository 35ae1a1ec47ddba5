import type { Kysely } from 'kysely';

/**
 * The OAuth 2.0 device authorization grant (RFC 8628, issue 53): `tianji login --web` asks for a code, a signed-in
 * person approves it in a browser, and the device polls for its own session. One row per request: the device code
 * is kept only as its SHA-256 (it is the device's bearer secret until the session is issued), the user code in
 * clear (short-lived, looked up by the approver, throttled). The approver's token_version and method references at
 * approval travel to the session that the device's successful poll starts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('device_authorizations')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('device_code_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('user_code', 'varchar(8)', (c) => c.notNull())
    .addColumn('client_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('username_hint', 'varchar(64)')
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_agent', 'varchar(255)', (c) => c.notNull())
    .addColumn('device_label', 'varchar(128)', (c) => c.notNull())
    .addColumn('client_kind', 'varchar(16)', (c) => c.notNull())
    // pending → approved → consumed, or pending → denied.
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('approved_by', 'varchar(36)')
    .addColumn('approver_token_version', 'integer')
    .addColumn('approver_amr', 'varchar(32)')
    .addColumn('interval_seconds', 'integer', (c) => c.notNull())
    .addColumn('last_polled_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('decided_at', 'varchar(32)')
    .addColumn('session_id', 'varchar(36)')
    .execute();
  await db.schema
    .createIndex('device_authorizations_user_code_idx')
    .on('device_authorizations')
    .column('user_code')
    .execute();
  // The per-address limit on new codes counts an address's recent rows.
  await db.schema
    .createIndex('device_authorizations_ip_idx')
    .on('device_authorizations')
    .columns(['ip', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('device_authorizations').ifExists().execute();
}
