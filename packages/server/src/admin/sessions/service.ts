import { transact } from '../../db/transaction.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import type { AuthService, EndedSession } from '../auth/service.js';
import type { Actor } from '../shared/actor.js';
import { unique } from '../shared/actor.js';
import { offsetOf } from '../shared/query.js';
import { withLocation } from '../shared/location.js';
import { sessionsRepository as repo } from './repository.js';
import type { SessionFilter } from './schemas.js';
import { EscalationGuard, privilegeEscalation, type AccountAction } from '../escalation.js';

/**
 * Why `actor` may not end the sessions of each of these users (absent: it may). The one rule every operator session
 * route and the list's `deniedReason` ask: only the sessions of users whose grants the actor covers (escalation.ts,
 * rule 3), so below a super administrator never a super administrator's. One's own sessions are always one's own.
 */
async function refusalsToEnd(
  db: Kysely<Database>,
  actor: Actor,
  userIds: string[],
  action: AccountAction,
): Promise<Map<string, string>> {
  if (actor.isSuper) return new Map();
  const others = unique(userIds).filter((id) => id !== actor.id);
  return (await EscalationGuard.of(db, actor)).refusalsForUsers(others, action);
}

/** Refuses (403 PRIVILEGE_ESCALATION, the reason in Chinese) when one of these users' sessions is not the actor's to end. */
async function assertMayActOnUsers(
  db: Kysely<Database>,
  actor: Actor,
  userIds: string[],
  action: AccountAction,
): Promise<void> {
  const [first] = (await refusalsToEnd(db, actor, userIds, action)).values();
  if (first) throw privilegeEscalation(first);
}

/** Sessions seen and ended by their own user and by operators (menu system:session). */
export class SessionsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly auth: AuthService,
    /** 登录地点 of an address (engines/ip/plugin.ts). */
    private readonly place: (ip: string) => { zh: string; en: string },
  ) {}

  /** A page of live sessions, each with why the actor may not end it (`deniedReason`, absent when it may). */
  async list(actor: Actor, f: SessionFilter) {
    const { items, total } = await repo.list(this.db, this.auth.iso(), f, f.pageSize, offsetOf(f));
    const refusals = await refusalsToEnd(
      this.db,
      actor,
      items.map((s) => s.userId),
      '结束该用户的会话',
    );
    const rows = withLocation(items, this.place).map((s) => ({
      ...s,
      ...(refusals.has(s.userId) && { deniedReason: refusals.get(s.userId) }),
    }));
    return { items: rows, total };
  }

  /** The user's own live sessions, `current` marking the one making the request. */
  async listOwn(userId: string, currentId: string | undefined) {
    const { items } = await repo.list(this.db, this.auth.iso(), { userId }, 1000, 0);
    return withLocation(items, this.place).map((s) => ({ ...s, current: s.id === currentId }));
  }

  /** Signs out one of one's own devices (404 when it is not a live session of this user). */
  async endOwn(userId: string, sessionId: string): Promise<void> {
    const ended = await this.auth.endSessions({ ids: [sessionId], userId }, 'SESSION_ENDED', userId);
    if (ended.length === 0) throw notFound('session');
  }

  /** Signs out every other device of the user; returns how many sessions ended. */
  async revokeOthers(userId: string, currentId: string | undefined): Promise<number> {
    return (await this.auth.endSessions({ userId, exceptId: currentId }, 'SESSION_ENDED', userId)).length;
  }

  /** An operator ends sessions by id: all or nothing when a rule refuses one of their owners. Unknown ids are ignored. */
  async end(actor: Actor, ids: string[], action: 'session.delete' | 'session.batch-delete'): Promise<number> {
    const wanted = unique(ids);
    const ended = await transact(this.db, async (trx) => {
      const owners = await repo.owners(trx, this.auth.iso(), wanted);
      if (action === 'session.delete' && owners.length === 0) throw notFound('session');
      await assertMayActOnUsers(
        trx,
        actor,
        owners.map((o) => o.userId),
        '结束该用户的会话',
      );
      // SESSION_REVOKED, not SESSION_ENDED: the device is told an operator ended it, not that it signed out elsewhere.
      const done = await this.auth.endSessions({ ids: owners.map((o) => o.id) }, 'SESSION_REVOKED', actor.id, trx);
      if (done.length > 0) {
        const detail = { sessions: owners.map((o) => ({ id: o.id, userId: o.userId, username: o.username })) };
        await actor.audit(action, 'session', action === 'session.delete' ? owners[0].id : null, detail, trx);
      }
      return done;
    });
    await this.auth.announce(ended);
    return ended.length;
  }

  /** Every device of the user, now: token_version + 1 and every session ended with FORCED_LOGOUT. */
  async forceLogout(actor: Actor, userId: string): Promise<number> {
    const ended: EndedSession[] = await transact(this.db, async (trx) => {
      const user = await trx.selectFrom('users').select(['id', 'username']).where('id', '=', userId).executeTakeFirst();
      if (!user) throw notFound('user');
      await assertMayActOnUsers(trx, actor, [userId], '强制该用户下线');
      const { ended } = await this.auth.invalidateSessions(userId, trx, 'FORCED_LOGOUT', actor.id);
      await actor.audit('user.force-logout', 'user', userId, { username: user.username, sessions: ended.length }, trx);
      return ended;
    });
    await this.auth.announce(ended);
    return ended.length;
  }
}
