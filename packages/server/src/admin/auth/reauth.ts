import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { reauthRequired } from '../../errors.js';

/**
 * How long a proof of identity counts for account-security changes (enrolling TOTP): the sign-in itself, or a later
 * POST /api/auth/reauth with the current password (or a TOTP code). As Keycloak's "maximum age of authentication"
 * and GitHub's sudo mode: a stolen access token alone cannot enrol a second factor on a session its thief did not
 * sign in to just now. Ten minutes leaves time to install an authenticator and scan the code.
 */
export const REAUTH_WINDOW_MS = 10 * 60_000;

/**
 * The session's last proof of identity: its sign-in or its latest re-authentication, whichever is later. A token
 * without a session (issued before sessions existed) has none.
 */
async function lastProof(db: Kysely<Database>, sessionId: string | undefined): Promise<number> {
  if (!sessionId) return Number.NEGATIVE_INFINITY;
  const row = await db
    .selectFrom('sessions')
    .select(['created_at', 'reauthenticated_at'])
    .where('id', '=', sessionId)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
  if (!row) return Number.NEGATIVE_INFINITY;
  return Math.max(Date.parse(row.created_at), row.reauthenticated_at ? Date.parse(row.reauthenticated_at) : 0);
}

/** Refuses (REAUTH_REQUIRED) unless the session proved its holder within REAUTH_WINDOW_MS of `now`. */
export async function assertRecentProof(db: Kysely<Database>, sessionId: string | undefined, now: number) {
  if (now - (await lastProof(db, sessionId)) > REAUTH_WINDOW_MS) throw reauthRequired();
}

/** Records a proof just given on the session; returns until when it counts (ISO). */
export async function recordProof(db: Kysely<Database>, sessionId: string, now: number): Promise<string> {
  await db
    .updateTable('sessions')
    .set({ reauthenticated_at: new Date(now).toISOString() })
    .where('id', '=', sessionId)
    .execute();
  return new Date(now + REAUTH_WINDOW_MS).toISOString();
}
