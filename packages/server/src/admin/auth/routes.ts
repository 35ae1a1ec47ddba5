import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { normalizeMask } from '../permissions/mask.js';
import { PERMISSION_POINTS } from '../permissions/points.js';
import { visibleMenuTree, type MenuNode } from './access.js';
import { publicUser, type AuthService, CredentialError, getDummyHash, type ClientInfo } from './service.js';
import { FailureStore, LoginThrottle } from './throttle.js';
import { assertPasswordPolicy } from './password-policy.js';
import { clientKindOf, deviceLabel } from '../sessions/device.js';
import { AppError } from '../../errors.js';
import {
  ChangePasswordBody,
  LoginBody,
  LogoutBody,
  MenuNodeSchema,
  PermissionPointSchema,
  RefreshBody,
  TokenPairSchema,
  UserSummarySchema,
  data,
  type MenuNodeStatic,
} from './schemas.js';
import type { Static } from '@sinclair/typebox';

const TAG = '认证 Auth';

export const clientInfo = (req: FastifyRequest): ClientInfo => ({
  ip: req.ip,
  userAgent: String(req.headers['user-agent'] ?? ''),
  clientKind: clientKindOf(req.headers['x-client-kind']),
});

export function normalizeTree(nodes: MenuNode[]): MenuNodeStatic[] {
  return nodes.map((n) => ({ ...n, permissions: normalizeMask(n.permissions), children: normalizeTree(n.children) }));
}

export default async function authRoutes(app: FastifyInstance, opts: { now?: () => number }) {
  const auth = app.authService;
  const throttle = new LoginThrottle(new FailureStore(app.db.kysely), app.config.loginThrottle, { now: opts.now });
  const isCredentialFailure = (e: unknown) => e instanceof CredentialError;
  await getDummyHash();

  app.post(
    '/login',
    {
      config: { auth: 'public' },
      schema: {
        tags: [TAG],
        summary: 'Sign in with username and password',
        description:
          'Returns an access token (short-lived) and a refresh token (single use). Unknown user, wrong password and disabled user all answer 401 with the same body. ' +
          'Repeated failures per account or per IP answer 429 with Retry-After.',
        body: LoginBody,
        response: {
          200: data(Type.Object({ accessToken: Type.String(), refreshToken: Type.String(), user: UserSummarySchema })),
        },
      },
    },
    async (req) => {
      const { username, password } = req.body as Static<typeof LoginBody>;
      const client = clientInfo(req);
      const attempt = {
        event: 'login' as const,
        username,
        ip: client.ip,
        userAgent: client.userAgent,
        deviceLabel: deviceLabel(client.userAgent),
        clientKind: client.clientKind,
      };
      const logged = { actorId: null, actorUsername: '' };
      try {
        const { sessionId, ...result } = await throttle.guard(
          username,
          req.ip,
          () => auth.login(username, password, client),
          isCredentialFailure,
        );
        await app.loginLog.record([
          { ...attempt, ...logged, result: 'success', reason: '', userId: result.user.id, sessionId },
        ]);
        return { data: result };
      } catch (e) {
        const reason =
          e instanceof CredentialError
            ? e.failure
            : e instanceof AppError && e.code === 'TOO_MANY_REQUESTS'
              ? 'THROTTLED'
              : 'ERROR';
        const userId = e instanceof CredentialError ? e.userId : null;
        await app.loginLog.record([{ ...attempt, ...logged, result: 'failure', reason, userId, sessionId: null }]);
        throw e;
      }
    },
  );

  app.post(
    '/refresh',
    {
      config: { auth: 'public' },
      schema: {
        tags: [TAG],
        summary: 'Exchange a refresh token for a new pair',
        description:
          'Rotates the pair: the presented refresh token is void at once. Presenting an already-rotated token again is treated as theft and revokes every token of that sign-in (401). ' +
          'A failed refresh means: sign in again.',
        body: RefreshBody,
        response: { 200: data(TokenPairSchema) },
      },
    },
    async (req) => ({
      data: await auth.refresh((req.body as Static<typeof RefreshBody>).refreshToken, clientInfo(req)),
    }),
  );

  app.post(
    '/logout',
    {
      config: { auth: 'authenticated' },
      schema: {
        tags: [TAG],
        summary: 'Sign out: revoke the presented refresh token',
        description:
          'Revokes the presented refresh token and every token rotated from the same sign-in (other devices stay signed in). ' +
          'The access token is stateless and stays usable until its own expiry (ACCESS_TOKEN_TTL, 15 minutes by default).',
        body: Type.Optional(LogoutBody),
        response: { 204: Type.Null({ description: 'Signed out' }) },
      },
    },
    async (req, reply) => {
      await auth.logout(req.auth!.id, (req.body as Static<typeof LogoutBody> | undefined)?.refreshToken);
      return reply.code(204).send();
    },
  );

  app.get(
    '/me',
    {
      config: { auth: 'authenticated' },
      schema: {
        tags: [TAG],
        summary: 'The signed-in user, roles, aggregate mask and visible menu tree',
        description:
          'A menu is visible when any of the user’s enabled roles holds a grant on it, even with bits 0; its ancestors are included so the tree is complete.',
        response: {
          200: data(Type.Intersect([UserSummarySchema, Type.Object({ menus: Type.Array(MenuNodeSchema) })])),
        },
      },
    },
    async (req) => {
      const a = req.auth!;
      return { data: { ...publicUser(a), menus: normalizeTree(await visibleMenuTree(app.db.kysely, a)) } };
    },
  );

  app.put(
    '/password',
    {
      config: { auth: 'authenticated' },
      schema: {
        tags: [TAG],
        summary: 'Change one’s own password',
        description:
          'Increments token_version: every token on every device dies. The response carries a fresh pair for this caller. ' +
          'A wrong oldPassword is 400 and counts toward the same failure limit as sign-in (429 with Retry-After).',
        body: ChangePasswordBody,
        response: { 200: data(TokenPairSchema) },
      },
    },
    async (req) => {
      const { oldPassword, newPassword } = req.body as Static<typeof ChangePasswordBody>;
      assertPasswordPolicy('newPassword', newPassword, app.config.passwordPolicy);
      const { id, username, sessionId } = req.auth!;
      const pair = await throttle.guard(
        username,
        req.ip,
        () => auth.changePassword(id, oldPassword, newPassword, clientInfo(req), sessionId),
        isCredentialFailure,
      );
      await app.audit(req, 'auth.change-password', 'user', req.auth!.id);
      return { data: pair };
    },
  );
}

export async function permissionRoutes(app: FastifyInstance) {
  app.get(
    '/',
    {
      config: { auth: 'authenticated' },
      schema: {
        tags: [TAG],
        summary: 'The ten permission points',
        response: { 200: data(Type.Array(PermissionPointSchema)) },
      },
    },
    async () => ({ data: PERMISSION_POINTS }),
  );
}

declare module 'fastify' {
  interface FastifyInstance {
    authService: AuthService;
  }
}
