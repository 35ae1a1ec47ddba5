import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { SignedOutCode } from '../../errors.js';
import type { EndedSession } from '../auth/service.js';
import type { SignedInRequest } from '../auth/guard.js';
import type { AuditAction } from '../audit/actions.js';

/**
 * Who performs an administrative write, as the services see it (no Fastify types past the routes):
 * the signed-in user and a way to record the write in the audit log inside the write's own transaction.
 */
export interface Actor {
  id: string;
  username: string;
  isSuper: boolean;
  audit(
    action: AuditAction,
    targetType: string,
    targetId: string | null,
    detail: unknown,
    trx: Kysely<Database>,
  ): Promise<void>;
}

export function actorOf(req: SignedInRequest): Actor {
  const a = req.auth;
  return {
    id: a.id,
    username: a.username,
    isSuper: a.isSuper,
    audit: (action, targetType, targetId, detail, trx) =>
      req.server.audit(req, action, targetType, targetId, detail, trx),
  };
}

/**
 * Sessions of a user can be ended at once (token_version + 1, every session ended with `reason`): AuthService
 * provides it. Inside a transaction, `announce` the returned sessions once it has committed.
 */
export interface SessionInvalidator {
  invalidateSessions(
    userId: string,
    db: Kysely<Database>,
    reason: SignedOutCode,
    by: string | null,
  ): Promise<{ ended: EndedSession[] }>;
  announce(ended: EndedSession[]): Promise<void>;
}

export const unique = <T>(xs: readonly T[]): T[] => [...new Set(xs)];

/** The fields of `patch` whose value differs from `before`, as `{from, to}`: the audit detail of an edit. */
export function changesOf(before: object, patch: object): Record<string, { from: unknown; to: unknown }> {
  const out: Record<string, { from: unknown; to: unknown }> = {};
  for (const [key, to] of Object.entries(patch)) {
    const from = (before as Record<string, unknown>)[key];
    if (to !== undefined && to !== from) out[key] = { from, to };
  }
  return out;
}
