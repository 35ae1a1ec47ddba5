import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/schema.js';

/**
 * The form a username is compared in: Unicode NFKC (fullwidth `ａｄｍｉｎ` is `admin`), then lower case, then NFKC
 * again (lower-casing can leave a sequence that composes). `Admin`, `ADMIN` and `ａｄｍｉｎ` all give `admin`.
 * Stored in users.username_key, which is unique: two accounts whose keys match cannot coexist, and sign-in
 * looks the account up by the key of what was typed.
 */
export function usernameKey(username: string): string {
  return username.normalize('NFKC').toLowerCase().normalize('NFKC');
}

/**
 * Accounts left without a key by migration 0005 because their name collided with an older account's (see there):
 * they cannot sign in until renamed. Logged at every start while any remain, naming them.
 */
export async function warnUsernameCollisions(db: Kysely<Database>, log: FastifyBaseLogger): Promise<string[]> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'username'])
    .where('username_key', 'is', null)
    .orderBy('username')
    .execute();
  if (rows.length) {
    log.warn(
      { users: rows.map((r) => ({ id: r.id, username: r.username })) },
      `用户名冲突：${rows.map((r) => `"${r.username}"`).join('、')} 与更早的账号仅大小写或 Unicode 写法不同，在改名前无法登录（PATCH /api/users/:id 改名） · ` +
        `username collision: these accounts differ from an older account only by case or Unicode form and cannot sign in until renamed`,
    );
  }
  return rows.map((r) => r.username);
}
