import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * Admin API answers carry tokens and personal data: no browser, proxy or CDN may keep them. Set on every admin
 * response — success or error, from the first hook on (so a 401 from the guard has it too); the 404 handler, the
 * router's own errors and the HTTP parser's (plugins/client-errors.ts) set it for admin paths as well.
 */
export const NO_STORE = 'no-store';

export function noStore(_req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  reply.header('cache-control', NO_STORE);
  done();
}
