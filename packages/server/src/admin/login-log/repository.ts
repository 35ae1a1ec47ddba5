import { randomUUID } from 'node:crypto';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/schema.js';
import { timeWindow } from '../audit/repository.js';
import { containsText, startsWithText } from '../shared/query.js';
import type { ClientKind } from '../sessions/device.js';
import type { LoginEvent, LoginLogFilter, LoginLogRecord, LoginResult } from './schemas.js';

export type LoginLogInput = Omit<LoginLogRecord, 'id' | 'createdAt'>;

function filtered<O>(qb: SelectQueryBuilder<Database, 'login_logs', O>, f: LoginLogFilter) {
  let q = qb;
  if (f.keyword) q = q.where(containsText('username', f.keyword));
  if (f.userId) q = q.where('user_id', '=', f.userId);
  if (f.ip) q = q.where(startsWithText('ip', f.ip));
  if (f.event) q = q.where('event', '=', f.event);
  if (f.result) q = q.where('result', '=', f.result);
  const { from, before } = timeWindow(f);
  if (from) q = q.where('created_at', '>=', from);
  if (before) q = q.where('created_at', '<', before);
  return q;
}

const toEntry = (r: Database['login_logs']): LoginLogRecord => ({
  id: r.id,
  createdAt: r.created_at,
  event: r.event as LoginEvent,
  result: r.result as LoginResult,
  reason: r.reason,
  username: r.username,
  userId: r.user_id,
  sessionId: r.session_id,
  ip: r.ip,
  userAgent: r.user_agent,
  deviceLabel: r.device_label,
  clientKind: r.client_kind as ClientKind,
  actorId: r.actor_id,
  actorUsername: r.actor_username,
});

export const loginLogRepository = {
  async insert(db: Kysely<Database>, rows: LoginLogInput[], now: string): Promise<void> {
    if (rows.length === 0) return;
    await db
      .insertInto('login_logs')
      .values(
        rows.map((e) => ({
          id: randomUUID(),
          created_at: now,
          event: e.event,
          result: e.result,
          reason: e.reason,
          username: e.username.slice(0, 128),
          user_id: e.userId,
          session_id: e.sessionId,
          ip: e.ip.slice(0, 64),
          user_agent: e.userAgent.slice(0, 255),
          device_label: e.deviceLabel.slice(0, 128),
          client_kind: e.clientKind,
          actor_id: e.actorId,
          actor_username: e.actorUsername.slice(0, 64),
        })),
      )
      .execute();
  },

  /** Newest first. */
  async list(db: Kysely<Database>, f: LoginLogFilter, limit: number, offset: number) {
    const { total } = await filtered(db.selectFrom('login_logs'), f)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    const rows = await filtered(db.selectFrom('login_logs').selectAll(), f)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return { items: rows.map(toEntry), total: Number(total) };
  },

  /** Deletes log rows older than `before`; returns how many. */
  async prune(db: Kysely<Database>, before: string): Promise<number> {
    const res = await db.deleteFrom('login_logs').where('created_at', '<', before).executeTakeFirst();
    return Number(res.numDeletedRows);
  },
};
