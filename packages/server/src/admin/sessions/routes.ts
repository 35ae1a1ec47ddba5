import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { data } from '../auth/schemas.js';
import { actorOf } from '../shared/actor.js';
import { DeletedSchema, IdParams, IdsBody, NoContent, PagedSchema, SYSTEM_TAG } from '../shared/schemas.js';
import { OwnSessionSchema, SessionQuery, SessionSchema } from './schemas.js';
import { SessionsService } from './service.js';

const MENU = 'system:session';
const tags = [SYSTEM_TAG];
type Id = { Params: Static<typeof IdParams> };

declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionsService;
  }
}

/**
 * Operators (menu system:session 在线会话): /api/sessions and /api/users/{id}/force-logout. Ending a session stops its
 * access token at the next request (401 SESSION_ENDED) and its refresh token at once.
 */
export default async function sessionRoutes(app: FastifyInstance) {
  const sessions = app.sessions;

  app.get<{ Querystring: Static<typeof SessionQuery> }>(
    '/sessions',
    {
      config: { auth: { menu: MENU, bits: ['SEARCH'] } },
      schema: {
        tags,
        summary: 'List live sessions',
        description: 'Sessions that have not ended or expired, most recently refreshed first. Filters: userId, ip (prefix), clientKind, keyword (username or nickname).',
        querystring: SessionQuery,
        response: { 200: PagedSchema(SessionSchema) },
      },
    },
    async (req) => {
      const q = req.query;
      return { data: { ...(await sessions.list(q)), page: q.page, pageSize: q.pageSize } };
    },
  );

  app.delete<Id>(
    '/sessions/:id',
    {
      config: { auth: { menu: MENU, bits: ['DELETE'] } },
      schema: {
        tags,
        summary: 'End a session',
        description: 'Its tokens answer 401 SESSION_ENDED from their next use. Only a super administrator may end a super administrator’s session (409 SUPER_ADMIN_PROTECTED).',
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      await sessions.end(actorOf(req), [req.params.id], 'session.delete');
      return reply.code(204).send();
    },
  );

  app.post<{ Body: Static<typeof IdsBody> }>(
    '/sessions/batch-delete',
    {
      config: { auth: { menu: MENU, bits: ['BATCH_DELETE'] } },
      schema: {
        tags,
        summary: 'End several sessions',
        description: 'All or nothing: if one of them belongs to a super administrator and you are not one, none ends (409). Unknown or ended ids are ignored.',
        body: IdsBody,
        response: { 200: DeletedSchema },
      },
    },
    async (req) => ({ data: { deleted: await sessions.end(actorOf(req), req.body.ids, 'session.batch-delete') } }),
  );

  app.post<Id>(
    '/users/:id/force-logout',
    {
      config: { auth: { menu: MENU, bits: ['DELETE'] } },
      schema: {
        tags,
        summary: 'Force a user to sign out everywhere',
        description: 'token_version + 1: every token on every device answers 401 FORCED_LOGOUT from its next use. Only a super administrator may do this to a super administrator (409).',
        params: IdParams,
        response: { 200: data(Type.Object({ ended: Type.Integer({ description: 'Sessions that were live' }) })) },
      },
    },
    async (req) => ({ data: { ended: await sessions.forceLogout(actorOf(req), req.params.id) } }),
  );
}

/** A user's own sessions: /api/auth/sessions (any signed-in user). */
export async function ownSessionRoutes(app: FastifyInstance) {
  const sessions = app.sessions;
  const authTags = ['认证 Auth'];

  app.get(
    '/',
    {
      config: { auth: 'authenticated' },
      schema: { tags: authTags, summary: 'My live sessions', description: '`current` marks the session of the token making this request.', response: { 200: data(Type.Array(OwnSessionSchema)) } },
    },
    async (req) => ({ data: await sessions.listOwn(req.auth!.id, req.auth!.sessionId) }),
  );

  app.delete<Id>(
    '/:id',
    {
      config: { auth: 'authenticated' },
      schema: {
        tags: authTags,
        summary: 'Sign out one of my devices',
        description: 'Its tokens answer 401 SESSION_ENDED from their next use. 404 when the id is not a live session of yours.',
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      await sessions.endOwn(req.auth!.id, req.params.id);
      return reply.code(204).send();
    },
  );

  app.post(
    '/revoke-others',
    {
      config: { auth: 'authenticated' },
      schema: {
        tags: authTags,
        summary: 'Sign out every other device',
        description: 'Ends every session of yours except the one making this request.',
        response: { 200: data(Type.Object({ ended: Type.Integer() })) },
      },
    },
    async (req) => ({ data: { ended: await sessions.revokeOthers(req.auth!.id, req.auth!.sessionId) } }),
  );
}
