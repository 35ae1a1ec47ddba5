import type { ColumnType, Generated } from 'kysely';

/** Timestamps are ISO 8601 UTC strings on both dialects, so they sort and compare the same way everywhere. */
type Timestamp = string;

export interface UsersTable {
  id: string;
  username: string;
  /** usernameKey(username), unique; null only for an account whose name collided at migration 0005 (cannot sign in). */
  username_key: ColumnType<string | null, string, string>;
  nickname: string;
  /** Own contact details (migration 0009), '' when not given. */
  email: ColumnType<string, string | undefined, string>;
  phone: ColumnType<string, string | undefined, string>;
  password_hash: string;
  status: 'enabled' | 'disabled';
  token_version: number;
  /** Why token_version was last raised: the 401 code of the tokens it voided (migration 0005). */
  sessions_end_reason: string | null;
  /** 1: the password was set by someone else; admin routes answer 403 until the user picks their own (migration 0009). */
  must_change_password: ColumnType<number, number | undefined, number>;
  /** Base32 TOTP secret; set at setup, in use once totp_enabled_at is set. */
  totp_secret: ColumnType<string | null, string | null | undefined, string | null>;
  totp_enabled_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** The last TOTP time step accepted, so a code is never accepted twice. */
  totp_last_step: ColumnType<number | string | null, number | null | undefined, number | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RolesTable {
  id: string;
  code: string;
  name: string;
  description: string;
  status: 'enabled' | 'disabled';
  sort: number;
  /** 1: members must sign in with TOTP (migration 0009). */
  require_totp: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MenusTable {
  id: string;
  parent_id: string | null;
  code: string;
  name: string;
  path: string;
  icon: string;
  sort: number;
  /** directory | page | link | embed (admin/menus/schemas.ts). */
  kind: Generated<string>;
  /** page: the built-in menu whose page it shows ('' = none chosen yet); link, embed: the URL; directory: ''. */
  target: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One permission bit value per (role, menu); 0 still makes the menu visible. Super admin holds -1. */
export interface RoleMenusTable {
  role_id: string;
  menu_id: string;
  bits: number;
}

export interface UserRolesTable {
  user_id: string;
  role_id: string;
}

export interface RefreshTokensTable {
  id: string;
  user_id: string;
  family_id: string;
  token_hash: string;
  expires_at: Timestamp;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
  /** Set when the token was rotated: presenting it again is a replay. */
  rotated_at: Timestamp | null;
  ip: string;
  user_agent: string;
}

/** One sign-in: the refresh-token family `id` (migration 0005). */
export interface SessionsTable {
  id: string;
  user_id: string;
  created_at: Timestamp;
  /** Updated on refresh, not on every request. */
  last_used_at: Timestamp;
  expires_at: Timestamp;
  ip: string;
  user_agent: string;
  client_kind: string;
  device_label: string;
  ended_at: Timestamp | null;
  /** The 401 code the session's tokens answer with after it ended (or LOGOUT). */
  end_reason: string | null;
  /** Who ended it: the user themself, an operator, or null (the system). */
  ended_by: string | null;
  /** When its holder last proved who they are after the sign-in (admin/auth/reauth.ts); null: only at created_at. */
  reauthenticated_at: Timestamp | null;
  /** How it was opened (migration 0022): password (with or without a second step), passkey, device (approved). */
  sign_in_method: ColumnType<SignInMethod, SignInMethod | undefined, SignInMethod>;
  /** RFC 8176 method references, comma-separated: what the access tokens it issues carry (`pwd`, `pwd,otp`, `hwk,user`). */
  amr: ColumnType<string, string | undefined, string>;
  /** The passkey it was opened with, if any (no foreign key: the session outlives the passkey's row). */
  passkey_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export type SignInMethod = 'password' | 'passkey' | 'device';

/** WebAuthn credentials (migration 0022): public keys and counters only. */
export interface PasskeysTable {
  id: string;
  user_id: string;
  /** base64url of the credential id. */
  credential_id: string;
  /** base64url of the COSE public key. */
  public_key: string;
  counter: ColumnType<number | string, number | undefined, number>;
  /** The authenticator's transports, comma-separated (usb, nfc, ble, internal, hybrid). */
  transports: string;
  /** singleDevice or multiDevice (synced, e.g. iCloud Keychain, Google Password Manager). */
  device_type: string;
  backed_up: number;
  aaguid: string;
  name: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
}

export type DeviceAuthorizationStatus = 'pending' | 'approved' | 'denied' | 'consumed';

/** One device sign-in request (RFC 8628, migration 0023): a code a signed-in person approves for another device. */
export interface DeviceAuthorizationsTable {
  id: string;
  /** SHA-256 hex of the device code: the device's secret for polling. */
  device_code_hash: string;
  /** Eight letters, without the dash (BCDFGHJK…). */
  user_code: string;
  client_name: string;
  /** Only this account may approve, when set. */
  username_hint: string | null;
  /** The device's address, user agent, label and client kind at the code request: its session gets them. */
  ip: string;
  user_agent: string;
  device_label: string;
  client_kind: string;
  status: DeviceAuthorizationStatus;
  approved_by: string | null;
  /** The approver's token_version when they approved: the session is issued only at that version. */
  approver_token_version: number | null;
  /** The approving session's method references (comma-separated), carried by the device's session. */
  approver_amr: string | null;
  /** How long the device must wait between polls; grows by 5 s at each SLOW_DOWN. */
  interval_seconds: number;
  last_polled_at: Timestamp | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  decided_at: Timestamp | null;
  session_id: string | null;
}

/** One sign-in attempt, sign-out or session end (migration 0006). */
export interface LoginLogsTable {
  id: string;
  created_at: Timestamp;
  /** login, logout, session-ended, forced-logout, refresh-reused */
  event: string;
  /** success or failure */
  result: string;
  /** Why: UNKNOWN_USER, WRONG_PASSWORD, ACCOUNT_DISABLED, THROTTLED, or the code a session ended with; '' when none. */
  reason: string;
  /** As typed at sign-in; the account's name for the other events. */
  username: string;
  user_id: string | null;
  session_id: string | null;
  ip: string;
  user_agent: string;
  device_label: string;
  client_kind: string;
  /** Who ended the session, when someone did. */
  actor_id: string | null;
  actor_username: string;
}

/** A sign-in failure counter per key: (account, IP), IP or account (migration 0007). */
export interface LoginFailuresTable {
  key: string;
  /** Failed attempts, plus attempts still being checked. */
  count: number;
  last_failure_at: Timestamp | null;
  updated_at: Timestamp;
}

export interface AuditLogsTable {
  id: string;
  actor_id: string | null;
  actor_username: string;
  action: string;
  target_type: string;
  target_id: string | null;
  detail: string;
  ip: string;
  created_at: Timestamp;
}

export interface ContentItemsTable {
  id: string;
  library: string;
  /** The item as JSON text; its shape is the library's schema (catalogue/content-libraries.ts). */
  data: string;
  /** Lower-cased text the admin search matches against. */
  search_text: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ContentMetaTable {
  library: string;
  seeded_at: Timestamp | null;
  revision: number;
}

export interface ApiUsageTable {
  /** The caller's API key id, '' for anonymous callers (migration 0017). */
  api_key_id: string;
  endpoint: string;
  day: string;
  requests: number;
  /** Failed answers, whoever's fault. */
  errors: number;
  /** Of `errors`, those the caller caused: bad or unknown parameter, unknown path, rate limit (migration 0015). */
  caller_errors: number;
  /** JSON array of counts per latency bucket (monitor/histogram.ts). */
  buckets: string;
}

export interface Database {
  users: UsersTable;
  roles: RolesTable;
  menus: MenusTable;
  role_menus: RoleMenusTable;
  user_roles: UserRolesTable;
  refresh_tokens: RefreshTokensTable;
  sessions: SessionsTable;
  login_logs: LoginLogsTable;
  login_failures: LoginFailuresTable;
  audit_logs: AuditLogsTable;
  content_items: ContentItemsTable;
  content_meta: ContentMetaTable;
  api_usage: ApiUsageTable;
  api_keys: ApiKeysTable;
  api_key_policy: ApiKeyPolicyTable;
  access_revision: AccessRevisionTable;
  mfa_recovery_codes: MfaRecoveryCodesTable;
  passkeys: PasskeysTable;
  device_authorizations: DeviceAuthorizationsTable;
}

/** Single-use TOTP recovery codes (migration 0009). */
export interface MfaRecoveryCodesTable {
  id: string;
  user_id: string;
  /** SHA-256 hex of the normalised code. */
  code_hash: string;
  used_at: Timestamp | null;
}

/** One row (id 1): bumped by database triggers on every change to roles, user_roles, role_menus or menus. */
export interface AccessRevisionTable {
  id: number;
  rev: number;
}

export type { ColumnType, Generated };

/** API keys of public callers (migration 0017). Only the secret's SHA-256 is stored. */
export interface ApiKeysTable {
  id: string;
  name: string;
  note: string | null;
  /** The first 8 characters after `tj_`, to recognise a key. */
  prefix: string;
  /** SHA-256 hex of the whole secret. */
  secret_hash: string;
  /** After a rotation: the previous secret's hash, accepted until grace_until. */
  old_secret_hash: string | null;
  grace_until: Timestamp | null;
  created_by: string | null;
  created_by_username: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  last_used_at: Timestamp | null;
  expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
  per_minute: number | null;
  per_day: number | null;
  /** JSON array of strings, null = any. */
  groups: string | null;
  origins: string | null;
  addresses: string | null;
}

/** One row (id 1): the public endpoint groups that require a key. */
export interface ApiKeyPolicyTable {
  id: number;
  /** JSON array of group names. */
  require_key_groups: string;
  updated_at: Timestamp | null;
  /** Bumped by the database at every change to a key's secret, limits or state (migration 0019). */
  revision: Generated<number>;
}
