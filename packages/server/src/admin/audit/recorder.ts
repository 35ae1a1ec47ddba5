import { randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export type AuditFn = (req: FastifyRequest, action: string, targetType: string, targetId: string | null, detail?: unknown, db?: Kysely<Database>) => Promise<void>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Records an administrative write: who, what, target, when, from which address. Pass `db` inside a transaction. */
    audit: AuditFn;
  }
}

export default fp(
  async (app) => {
    const audit: AuditFn = async (req, action, targetType, targetId, detail = {}, db = app.db.kysely) => {
      await db
        .insertInto('audit_logs')
        .values({
          id: randomUUID(),
          actor_id: req.auth?.id ?? null,
          actor_username: req.auth?.username ?? '',
          action,
          target_type: targetType,
          target_id: targetId,
          detail: JSON.stringify(detail),
          ip: req.ip,
          created_at: new Date().toISOString(),
        })
        .execute();
    };
    app.decorate('audit', audit);
  },
  { name: 'audit-recorder' },
);
