import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { usernameKey } from './frozen-helpers.js';

/**
 * Usernames become unique regardless of case and Unicode form (users.username_key, computed as
 * admin/shared/username-key.ts computed it then: the frozen copy in frozen-helpers.ts).
 * The key is computed here in JavaScript, not in SQL: SQLite has no NFKC and lower-cases ASCII only.
 *
 * Existing accounts that already collide (`Admin` and `admin`) are not merged and do not stop the upgrade: the oldest
 * keeps the name, each younger one keeps its row but gets no key, so it cannot sign in until renamed. Each such
 * account is written to the audit log (`user.username-collision`) and named in a warning at every start
 * (warnUsernameCollisions), so the collision is reported rather than silently resolved.
 */
/** The tables as this migration sees them (later migrations may change them; this file must not follow). */
interface Tables {
  users: { id: string; username: string; username_key: string | null; created_at: string };
  audit_logs: {
    id: string;
    actor_id: string | null;
    actor_username: string;
    /** One the clients can name (AUDIT_ACTIONS): the row outlives this file. */
    action: string;
    target_type: string;
    target_id: string;
    detail: string;
    ip: string;
    created_at: string;
  };
}

export async function up(db: Kysely<Tables>): Promise<void> {
  await db.schema.alterTable('users').addColumn('username_key', 'varchar(255)').execute();
  const users = await db.selectFrom('users').select(['id', 'username']).orderBy('created_at').orderBy('id').execute();
  const owner = new Map<string, { id: string; username: string }>();
  const now = new Date().toISOString();
  for (const u of users) {
    const key = usernameKey(u.username);
    const first = owner.get(key);
    if (!first) {
      owner.set(key, u);
      await db.updateTable('users').set({ username_key: key }).where('id', '=', u.id).execute();
      continue;
    }
    await db
      .insertInto('audit_logs')
      .values({
        id: randomUUID(),
        actor_id: null,
        actor_username: 'migration',
        action: 'user.username-collision',
        target_type: 'user',
        target_id: u.id,
        detail: JSON.stringify({
          username: u.username,
          collidesWith: first.username,
          collidesWithId: first.id,
          effect: 'cannot sign in until renamed',
        }),
        ip: '',
        created_at: now,
      })
      .execute();
  }
  // Unique, NULLs allowed (several unkeyed collision losers) on both SQLite and PostgreSQL.
  await db.schema.createIndex('users_username_key_idx').on('users').column('username_key').unique().execute();
}

export async function down(db: Kysely<Tables>): Promise<void> {
  await sql`drop index if exists users_username_key_idx`.execute(db);
  await db.schema.alterTable('users').dropColumn('username_key').execute();
}
