import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { EndedSession, EndReason } from '../auth/service.js';
import type { ClientKind } from '../sessions/device.js';
import { FailureStore } from '../auth/throttle.js';
import { loginLogRepository as repo, type LoginLogInput } from './repository.js';
import type { LoginEvent, LoginResult } from './schemas.js';

const DAY_MS = 86_400_000;

/** How a session's end is filed in the log. */
const ENDED_AS: Record<EndReason, { event: LoginEvent; result: LoginResult }> = {
  LOGOUT: { event: 'logout', result: 'success' },
  FORCED_LOGOUT: { event: 'forced-logout', result: 'success' },
  REFRESH_REUSED: { event: 'refresh-reused', result: 'failure' },
  SESSION_ENDED: { event: 'session-ended', result: 'success' },
  SESSION_REVOKED: { event: 'forced-logout', result: 'success' },
  PASSWORD_CHANGED: { event: 'session-ended', result: 'success' },
  ACCOUNT_DISABLED: { event: 'session-ended', result: 'success' },
  TOKEN_EXPIRED: { event: 'session-ended', result: 'success' },
  REFRESH_SUPERSEDED: { event: 'session-ended', result: 'success' },
};

/**
 * The login log: sign-in attempts (written by the login route) and session ends (heard from AuthService). A write
 * that fails is logged and never fails the sign-in or sign-out it describes.
 */
export class LoginLog {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
    private readonly retentionMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  private iso = (ms = this.now()) => new Date(ms).toISOString();

  async record(entries: LoginLogInput[]): Promise<void> {
    try {
      await repo.insert(this.db, entries, this.iso());
    } catch (err) {
      this.log.error({ err }, 'login log: write failed');
    }
  }

  /** Wrong or locked second-step attempts on the account since its last successful sign-in. */
  async secondStepFailuresSinceLastSignIn(userId: string): Promise<number> {
    const last = await this.db
      .selectFrom('login_logs')
      .select((eb) => eb.fn.max('created_at').as('at'))
      .where('user_id', '=', userId)
      .where('event', '=', 'login')
      .where('result', '=', 'success')
      .executeTakeFirst();
    const row = await this.db
      .selectFrom('login_logs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('event', '=', 'login')
      .where('reason', 'in', ['WRONG_TOTP', 'TOTP_LOCKED'])
      // >=: rows of one millisecond (or a frozen test clock) are not told apart; the success itself has no reason.
      .where('created_at', '>=', last?.at ?? '')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** One row per ended session, describing the device that was signed out and who did it. */
  async recordEnded(ended: EndedSession[]): Promise<void> {
    try {
      const ids = ended.map((e) => e.id);
      const sessions = await this.db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select([
          'sessions.id',
          'users.username',
          'sessions.ip',
          'sessions.user_agent',
          'sessions.device_label',
          'sessions.client_kind',
        ])
        .where('sessions.id', 'in', ids)
        .execute();
      const byId = new Map(sessions.map((s) => [s.id, s]));
      const actorIds = [...new Set(ended.map((e) => e.by).filter((b): b is string => b !== null))];
      const actors = actorIds.length
        ? await this.db.selectFrom('users').select(['id', 'username']).where('id', 'in', actorIds).execute()
        : [];
      const actorName = new Map(actors.map((a) => [a.id, a.username]));
      await this.record(
        ended.map((e) => {
          const s = byId.get(e.id);
          return {
            ...ENDED_AS[e.reason],
            reason: e.reason === 'LOGOUT' ? '' : e.reason,
            username: s?.username ?? '',
            userId: e.userId,
            sessionId: e.id,
            ip: s?.ip ?? '',
            userAgent: s?.user_agent ?? '',
            deviceLabel: s?.device_label ?? '',
            clientKind: (s?.client_kind ?? 'other') as ClientKind,
            actorId: e.by,
            actorUsername: e.by ? (actorName.get(e.by) ?? '') : '',
          };
        }),
      );
    } catch (err) {
      this.log.error({ err }, 'login log: recording ended sessions failed');
    }
  }

  /** Drops log rows past the retention, and sessions and refresh tokens that expired over a day ago. */
  async prune(): Promise<{ logs: number; sessions: number }> {
    const logs = await repo.prune(this.db, this.iso(this.now() - this.retentionMs));
    const dayAgo = this.iso(this.now() - DAY_MS);
    await this.db.deleteFrom('refresh_tokens').where('expires_at', '<', dayAgo).execute();
    const res = await this.db.deleteFrom('sessions').where('expires_at', '<', dayAgo).executeTakeFirst();
    await new FailureStore(this.db).prune(this.now());
    return { logs, sessions: Number(res.numDeletedRows) };
  }
}
