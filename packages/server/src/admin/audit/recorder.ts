import { v7 as timeOrderedUuid } from 'uuid';
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { AuditAction } from './actions.js';

export type AuditFn = (
  req: FastifyRequest,
  action: AuditAction,
  targetType: string,
  targetId: string | null,
  detail?: unknown,
  db?: Kysely<Database>,
) => Promise<void>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Records an administrative write: who, what, target, when, from which address. Pass `db` inside a transaction. */
    audit: AuditFn;
  }
}

export interface AuditEntryInput {
  actorId: string | null;
  actorUsername: string;
  action: AuditAction;
  targetType: string;
  targetId: string | null;
  detail?: unknown;
  ip: string;
}

/** Writes one audit row. The plugin below fills actor and address from the request; the operator CLI calls it directly. */
export async function recordAudit(db: Kysely<Database>, e: AuditEntryInput): Promise<void> {
  await db
    .insertInto('audit_logs')
    .values({
      // Time-ordered (UUIDv7, monotonic within the process): the list's tiebreak after created_at, so two writes in
      // the same millisecond still list newest first.
      id: timeOrderedUuid(),
      actor_id: e.actorId,
      actor_username: e.actorUsername,
      action: e.action,
      target_type: e.targetType,
      target_id: e.targetId,
      detail: JSON.stringify(e.detail ?? {}),
      ip: e.ip,
      created_at: new Date().toISOString(),
    })
    .execute();
}

export default fp(
  async (app) => {
    const audit: AuditFn = (req, action, targetType, targetId, detail = {}, db = app.db.kysely) =>
      recordAudit(db, {
        actorId: req.auth?.id ?? null,
        actorUsername: req.auth?.username ?? '',
        action,
        targetType,
        targetId,
        detail,
        ip: req.ip,
      });
    app.decorate('audit', audit);
  },
  { name: 'audit-recorder' },
);
