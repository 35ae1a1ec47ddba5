import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/schema.js';
import { containsText, startsWithText } from '../shared/query.js';
import type { ClientKind } from './device.js';
import type { SessionFilter, SessionRecord } from './schemas.js';

type Joined = SelectQueryBuilder<Database, 'sessions' | 'users', object>;

/** Sessions that still hold a usable refresh token: not ended, not expired. */
function live(db: Kysely<Database>, now: string): Joined {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .where('sessions.ended_at', 'is', null)
    .where('sessions.expires_at', '>', now);
}

function filtered(q: Joined, f: Partial<SessionFilter>): Joined {
  let out = q;
  if (f.userId) out = out.where('sessions.user_id', '=', f.userId);
  if (f.clientKind) out = out.where('sessions.client_kind', '=', f.clientKind);
  if (f.ip) out = out.where(startsWithText('sessions.ip', f.ip));
  if (f.keyword)
    out = out.where((eb) =>
      eb.or([containsText('users.username', f.keyword!), containsText('users.nickname', f.keyword!)]),
    );
  return out;
}

const COLUMNS = [
  'sessions.id',
  'sessions.user_id',
  'users.username',
  'users.nickname',
  'sessions.created_at',
  'sessions.last_used_at',
  'sessions.expires_at',
  'sessions.ip',
  'sessions.user_agent',
  'sessions.client_kind',
  'sessions.sign_in_method',
  'sessions.device_label',
] as const;

export const sessionsRepository = {
  /** Live sessions, most recently used first. */
  async list(
    db: Kysely<Database>,
    now: string,
    f: Partial<SessionFilter>,
    limit: number,
    offset: number,
  ): Promise<{ items: SessionRecord[]; total: number }> {
    const { total } = await filtered(live(db, now), f)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    const rows = await filtered(live(db, now), f)
      .select(COLUMNS)
      .orderBy('sessions.last_used_at', 'desc')
      .orderBy('sessions.id')
      .limit(limit)
      .offset(offset)
      .execute();
    return {
      total: Number(total),
      items: rows.map((r) => ({
        id: r.id,
        userId: r.user_id,
        username: r.username,
        nickname: r.nickname,
        createdAt: r.created_at,
        lastUsedAt: r.last_used_at,
        expiresAt: r.expires_at,
        ip: r.ip,
        userAgent: r.user_agent,
        clientKind: r.client_kind as ClientKind,
        signInMethod: r.sign_in_method,
        deviceLabel: r.device_label,
      })),
    };
  },

  /** Owners of the given live sessions (unknown or ended ids are left out). */
  async owners(
    db: Kysely<Database>,
    now: string,
    ids: string[],
  ): Promise<Array<{ id: string; userId: string; username: string }>> {
    if (ids.length === 0) return [];
    const rows = await live(db, now)
      .select(['sessions.id', 'sessions.user_id', 'users.username'])
      .where('sessions.id', 'in', ids)
      .execute();
    return rows.map((r) => ({ id: r.id, userId: r.user_id, username: r.username }));
  },
};
