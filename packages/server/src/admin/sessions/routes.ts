import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ANY_PENDING } from '../../errors.js';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { data } from '../auth/schemas.js';
import { actorOf } from '../shared/actor.js';
import { DeletedSchema, IdParams, IdsBody, NoContent, PagedSchema, SYSTEM_TAG } from '../shared/schemas.js';
import { OnlineSessionSchema, OwnSessionSchema, SessionQuery } from './schemas.js';
import type { SessionsService } from './service.js';
import type { SessionEvents } from './events.js';
import { MENUS } from '../../catalogue/index.js';

const MENU = MENUS.sessions.code;
const tags = [SYSTEM_TAG];

declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionsService;
    sessionEvents: SessionEvents;
  }
}

/**
 * Operators (menu system:session 在线会话): /api/sessions and /api/users/{id}/force-logout. Ending a session stops its
 * access token at the next request (401 SESSION_REVOKED: 「此设备已被管理员下线」) and its refresh token at once.
 */
export default async function sessionRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const sessions = app.sessions;

  app.get(
    '/sessions',
    {
      config: { auth: { menu: MENU, bits: ['SEARCH'] } },
      schema: {
        tags,
        summary: '列出在线会话 List live sessions',
        description:
          'Sessions that have not ended or expired, most recently refreshed first. Filters: userId, ip (prefix), clientKind, keyword (username or nickname). ' +
          '`deniedReason` says why you may not end a row (its user holds permissions you lack).',
        querystring: SessionQuery,
        response: { 200: PagedSchema(OnlineSessionSchema) },
      },
    },
    async (req) => {
      const q = req.query;
      return { data: { ...(await sessions.list(actorOf(req), q)), page: q.page, pageSize: q.pageSize } };
    },
  );

  app.delete(
    '/sessions/:id',
    {
      config: { auth: { menu: MENU, bits: ['DELETE'] } },
      schema: {
        tags,
        summary: '结束会话 End a session',
        description:
          'Its tokens answer 401 SESSION_REVOKED (此设备已被管理员下线) from their next use. Only the sessions of users whose permissions you hold (never a super administrator’s, unless you are one): otherwise 403 PRIVILEGE_ESCALATION.',
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      await sessions.end(actorOf(req), [req.params.id], 'session.delete');
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/sessions/batch-delete',
    {
      config: { auth: { menu: MENU, bits: ['BATCH_DELETE'] } },
      schema: {
        tags,
        summary: '批量结束会话 End several sessions',
        description:
          'Each ended session’s tokens answer 401 SESSION_REVOKED from their next use. All or nothing: if one of them belongs to a user whose permissions you do not hold (a super administrator, when you are not one), none ends (403 PRIVILEGE_ESCALATION). Unknown or ended ids are ignored.',
        body: IdsBody,
        response: { 200: DeletedSchema },
      },
    },
    async (req) => ({ data: { deleted: await sessions.end(actorOf(req), req.body.ids, 'session.batch-delete') } }),
  );

  app.post(
    '/users/:id/force-logout',
    {
      config: { auth: { menu: MENU, bits: ['DELETE'] } },
      schema: {
        tags,
        summary: '强制用户在所有设备下线 Force a user to sign out everywhere',
        description:
          'token_version + 1: every token on every device answers 401 FORCED_LOGOUT from its next use. Only for users whose permissions you hold (never a super administrator, unless you are one): otherwise 403 PRIVILEGE_ESCALATION.',
        params: IdParams,
        response: { 200: data(Type.Object({ ended: Type.Integer({ description: 'Sessions that were live' }) })) },
      },
    },
    async (req) => ({ data: { ended: await sessions.forceLogout(actorOf(req), req.params.id) } }),
  );
}

/** A comment line every 25 s keeps proxies from closing an idle stream. */
const HEARTBEAT_MS = 25_000;

const AUTH_TAGS = ['认证 Auth'];

/** The event stream of one's own session: /api/auth/events (any signed-in user). */
export async function sessionEventRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  // Open streams never finish on their own: end them when the server shuts down, or closing would wait for them.
  const streams = new Set<ServerResponse>();
  app.addHook('preClose', async () => {
    for (const res of streams) res.end();
  });

  app.get(
    '/events',
    {
      config: { auth: 'authenticated', whilePending: ANY_PENDING },
      schema: {
        tags: AUTH_TAGS,
        summary: '本会话的事件流（SSE） Server-Sent Events of this session',
        description:
          'A text/event-stream (read it with fetch and the Bearer header). When this session ends — signed out elsewhere, by an operator, forced sign-out, ' +
          'new password, account disabled, refresh replay — it sends `event: session-ended` with `data: {"reason": "<401 code>", "message": "<Chinese text>"}` and closes. ' +
          'With REDIS_URL the notice reaches the streams on every instance.',
        response: {
          200: { description: 'text/event-stream', content: { 'text/event-stream': { schema: Type.String() } } },
        },
      },
    },
    async (req, reply) => {
      const sessionId = req.auth.sessionId;
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      });
      res.write(': connected\n\n');
      streams.add(res);
      const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS).unref();
      const stop = sessionId
        ? app.sessionEvents.listen(sessionId, (e) => {
            res.write(`event: session-ended\ndata: ${JSON.stringify({ reason: e.reason, message: e.message })}\n\n`);
            res.end();
          })
        : () => undefined;
      res.on('close', () => {
        streams.delete(res);
        clearInterval(heartbeat);
        stop();
      });
    },
  );
}

/** A user's own sessions: /api/auth/sessions (any signed-in user). */
export async function ownSessionRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const sessions = app.sessions;

  app.get(
    '/',
    {
      config: { auth: 'authenticated', whilePending: ANY_PENDING },
      schema: {
        tags: AUTH_TAGS,
        summary: '我的在线会话 My live sessions',
        description: '`current` marks the session of the token making this request.',
        response: { 200: data(Type.Array(OwnSessionSchema)) },
      },
    },
    async (req) => ({ data: await sessions.listOwn(req.auth.id, req.auth.sessionId) }),
  );

  app.delete(
    '/:id',
    {
      config: { auth: 'authenticated' },
      schema: {
        tags: AUTH_TAGS,
        summary: '让我的某台设备下线 Sign out one of my devices',
        description:
          'Its tokens answer 401 SESSION_ENDED from their next use. 404 when the id is not a live session of yours.',
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      await sessions.endOwn(req.auth.id, req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/revoke-others',
    {
      config: { auth: 'authenticated' },
      schema: {
        tags: AUTH_TAGS,
        summary: '让我的其他设备全部下线 Sign out every other device',
        description: 'Ends every session of yours except the one making this request.',
        response: { 200: data(Type.Object({ ended: Type.Integer() })) },
      },
    },
    async (req) => ({ data: { ended: await sessions.revokeOthers(req.auth.id, req.auth.sessionId) } }),
  );
}
