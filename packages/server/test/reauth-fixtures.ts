import type { Db } from '../src/db/index.js';

/**
 * Makes every open session of `username` look signed in (and last re-authenticated) `ageMs` ago, so that an
 * account-security change from it asks for a new proof of identity (REAUTH_REQUIRED) without waiting ten minutes.
 */
export async function ageSessions(db: Db, username: string, ageMs = 11 * 60_000): Promise<void> {
  const user = await db.kysely
    .selectFrom('users')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  await db.kysely
    .updateTable('sessions')
    .set({ created_at: new Date(Date.now() - ageMs).toISOString(), reauthenticated_at: null })
    .where('user_id', '=', user.id)
    .where('ended_at', 'is', null)
    .execute();
}
