import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { normalizeMask } from '../permissions/mask.js';
import { PERMISSION_POINTS } from '../permissions/points.js';
import { loadUserAccess, visibleMenuTree, type Grants, type MenuNode } from './access.js';
import { MfaService, wrongCode } from './mfa.js';
import { isRecoveryCodeInput } from './totp.js';
import { publicUser, type AuthService, CredentialError, getDummyHash, TOTP_PROOF } from './service.js';
import { FailureStore, LoginThrottle, SECOND_STEP_MAX_FAILURES } from './throttle.js';
import { assertPasswordPolicy } from './password-policy.js';
import { assertRecentProof, recordProof, REAUTH_WINDOW_MS } from './reauth.js';
import { deviceLabel } from '../sessions/device.js';
import { clientInfo, failureReason, worthLoggingWith } from './sign-in.js';
import passkeyRoutes from './passkey-routes.js';
import deviceRoutes from './device-routes.js';
import { ANY_PENDING, unauthorized } from '../../errors.js';
import { passkeyVerified } from './guard.js';
import {
  ChangePasswordBody,
  AccountStateSchema,
  LoginBody,
  LoginResultSchema,
  LoginTotpBody,
  LoginAnswerSchema,
  TotpEnableBody,
  IdentityProofBody,
  TotpSetupSchema,
  LogoutBody,
  MenuNodeSchema,
  PermissionPointSchema,
  RefreshBody,
  TokenPairSchema,
  UserSummarySchema,
  data,
  type MenuNodeStatic,
} from './schemas.js';

const TAG = '认证 Auth';

/** `/auth/me` answers as sent, per grants object (see the route); bounded for grants many users share. */
const meBodies = new WeakMap<Grants, Map<string, Buffer>>();
const ME_BODIES_PER_GRANTS = 1000;

/** What the owner reads at the sign-in after wrong codes: someone else may hold the password. */
const secondStepNotice = (n: number) =>
  `自上次登录以来，你的账号有 ${n} 次两步验证码输入错误${n >= SECOND_STEP_MAX_FAILURES ? '，两步验证曾被暂时锁定' : ''}。如果不是你本人输错，说明你的密码可能已泄露，请立即修改密码。`;

export function normalizeTree(nodes: MenuNode[]): MenuNodeStatic[] {
  return nodes.map((n) => ({ ...n, permissions: normalizeMask(n.permissions), children: normalizeTree(n.children) }));
}

export default async function authRoutes(parent: FastifyInstance, opts: { now?: () => number }) {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const auth = app.authService;
  const throttle = new LoginThrottle(new FailureStore(app.db.kysely), app.config.loginThrottle, { now: opts.now });
  const isCredentialFailure = (e: unknown) => e instanceof CredentialError;
  /** A refused attempt is logged once per throttled key; every other failure each time. */
  const worthLogging = (e: unknown) => worthLoggingWith(throttle, e);
  const mfa = new MfaService(app.db.kysely, opts.now);
  const now = opts.now ?? Date.now;
  await getDummyHash();
  await app.register(passkeyRoutes, { prefix: '/passkeys', throttle, now: opts.now });
  await app.register(deviceRoutes, { prefix: '/device', throttle, now: opts.now });

  app.post(
    '/login',
    {
      config: { auth: 'public' },
      schema: {
        tags: [TAG],
        summary: '用户名密码登录 Sign in with username and password',
        description:
          'Returns an access token (short-lived) and a refresh token (single use). Unknown user, wrong password and disabled user all answer 401 with the same body. ' +
          'Repeated failures per account or per IP answer 429 with Retry-After. ' +
          'For an account with TOTP enabled the answer is `{mfaRequired: true, mfaToken}` instead: finish with POST /api/auth/login/totp.',
        body: LoginBody,
        response: {
          200: data(LoginAnswerSchema),
        },
      },
    },
    async (req) => {
      const { username, password } = req.body;
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
        const outcome = await throttle.guard(
          username,
          req.ip,
          () => auth.login(username, password, client),
          isCredentialFailure,
        );
        // The password was right; the sign-in is logged when the second factor completes or fails.
        if ('mfaRequired' in outcome) return { data: outcome };
        const { sessionId, ...result } = outcome;
        await app.loginLog.record([
          { ...attempt, ...logged, result: 'success', reason: '', userId: result.user.id, sessionId },
        ]);
        return { data: result };
      } catch (e) {
        const userId = e instanceof CredentialError ? e.userId : null;
        if (await worthLogging(e))
          await app.loginLog.record([
            { ...attempt, ...logged, result: 'failure', reason: failureReason(e), userId, sessionId: null },
          ]);
        throw e;
      }
    },
  );

  app.post(
    '/login/totp',
    {
      config: { auth: 'public' },
      schema: {
        tags: [TAG],
        summary: '两步验证登录的第二步 Second step of a sign-in with TOTP',
        description:
          'With the mfaToken of POST /api/auth/login (valid 5 minutes) and a 6-digit code (±30 s accepted, each code once) or an unused recovery code. ' +
          'A wrong code is 401 UNAUTHORIZED, counted by the same throttle as passwords (429 with Retry-After) and recorded in the login log as WRONG_TOTP. ' +
          'An expired or foreign mfaToken is 401: sign in again.',
        body: LoginTotpBody,
        response: { 200: data(LoginResultSchema) },
      },
    },
    async (req) => {
      const { mfaToken, code } = req.body;
      const claims = await app.tokens.verifyMfa(mfaToken);
      const access = await loadUserAccess(app.db.kysely, claims.sub);
      if (access?.status !== 'enabled' || access.tokenVersion !== claims.ver || !access.totpEnabled)
        throw unauthorized('登录已失效，请重新输入密码 (mfaToken no longer valid)');
      const client = clientInfo(req);
      const attempt = {
        event: 'login' as const,
        username: access.username,
        ip: client.ip,
        userAgent: client.userAgent,
        deviceLabel: deviceLabel(client.userAgent),
        clientKind: client.clientKind,
        actorId: null,
        actorUsername: '',
        userId: access.id,
      };
      try {
        const { sessionId, ...result } = await throttle.guardSecondStep(
          access.username,
          req.ip,
          async () => {
            if (!(await mfa.verify(access.id, code))) throw wrongCode(access.id);
            // One sign-in per password step: a right code cannot open a second session with the same mfaToken.
            if (!(await throttle.store.claimOnce(`mfa:${claims.jti}`, Date.now())))
              throw unauthorized('此次登录已完成，请重新输入密码 (mfaToken already used)');
            return auth.signIn(access, client, claims.ver, TOTP_PROOF);
          },
          isCredentialFailure,
        );
        const missed = await app.loginLog.secondStepFailuresSinceLastSignIn(access.id);
        // A recovery code is the fallback for a lost authenticator: the log says it was used, and the user is told how
        // many are left.
        const viaRecovery = isRecoveryCodeInput(code);
        await app.loginLog.record([
          { ...attempt, result: 'success', reason: viaRecovery ? 'RECOVERY_CODE' : '', sessionId },
        ]);
        return {
          data: {
            ...result,
            ...(missed > 0 && { securityNotice: secondStepNotice(missed) }),
            ...(viaRecovery && { recoveryCodesLeft: await mfa.recoveryCodesLeft(access.id) }),
          },
        };
      } catch (e) {
        if (await worthLogging(e))
          await app.loginLog.record([{ ...attempt, result: 'failure', reason: failureReason(e), sessionId: null }]);
        throw e;
      }
    },
  );

  app.post(
    '/totp/setup',
    {
      config: { auth: 'authenticated', whilePending: ['TOTP_SETUP_REQUIRED'] },
      schema: {
        tags: [TAG],
        summary: '开始为自己的账号设置两步验证 Start TOTP enrolment of one’s own account',
        description:
          'A new secret (pending until POST /api/auth/totp/enable confirms it; calling again replaces it). 409 when TOTP is already enabled. ' +
          `Needs a proof of identity from the last ${REAUTH_WINDOW_MS / 60_000} minutes (the sign-in, or POST /api/auth/reauth): else 403 REAUTH_REQUIRED.`,
        response: { 200: data(TotpSetupSchema) },
      },
    },
    async (req) => {
      await assertRecentProof(app.db.kysely, req.auth.sessionId, now());
      return { data: await mfa.setup(req.auth.id) };
    },
  );

  app.post(
    '/totp/enable',
    {
      config: { auth: 'authenticated', whilePending: ['TOTP_SETUP_REQUIRED'] },
      schema: {
        tags: [TAG],
        summary:
          '用当前动态码确认两步验证，返回十个恢复码 Confirm TOTP with a current code; returns ten recovery codes',
        description:
          'The recovery codes are shown only here (stored hashed); each signs in once in place of a 6-digit code. A wrong code is 400. ' +
          'With signOutOthers, every other session of the account ends (SESSION_ENDED); signedOut says how many. ' +
          `Needs a proof of identity from the last ${REAUTH_WINDOW_MS / 60_000} minutes, as setup does (403 REAUTH_REQUIRED).`,
        body: TotpEnableBody,
        response: {
          200: data(
            Type.Object({
              recoveryCodes: Type.Array(Type.String()),
              signedOut: Type.Integer({ description: 'Other sessions ended (0 without signOutOthers)' }),
            }),
          ),
        },
      },
    },
    async (req) => {
      const { id, sessionId } = req.auth;
      await assertRecentProof(app.db.kysely, sessionId, now());
      const recoveryCodes = await mfa.enable(id, req.body.code);
      const signedOut = req.body.signOutOthers ? await app.sessions.revokeOthers(id, sessionId) : 0;
      await app.audit(req, 'auth.totp-enable', 'user', id, signedOut > 0 ? { signedOut } : undefined);
      return { data: { recoveryCodes, signedOut } };
    },
  );

  app.post(
    '/reauth',
    {
      config: { auth: 'authenticated', whilePending: ['TOTP_SETUP_REQUIRED'] },
      schema: {
        tags: [TAG],
        summary: '验证身份（敏感操作前） Prove it is you before an account-security change',
        description:
          'With the current password, or (TOTP on) a 6-digit or recovery code; with a passkey, see POST /api/auth/passkeys/reauth. Enrolling TOTP then works from this session ' +
          `for ${REAUTH_WINDOW_MS / 60_000} minutes (a sign-in counts the same way). A wrong proof is 400 and counts toward the sign-in throttle. ` +
          'Signing other devices out needs no such proof.',
        body: IdentityProofBody,
        response: {
          200: data(
            Type.Object({ until: Type.String({ format: 'date-time', description: 'When the proof stops counting' }) }),
          ),
        },
      },
    },
    async (req) => {
      const { id, username, sessionId } = req.auth;
      if (!sessionId) throw unauthorized('请重新登录后再试 (this token belongs to no session)');
      await throttle.guard(username, req.ip, () => mfa.proveOwner(id, req.body), isCredentialFailure);
      return { data: { until: await recordProof(app.db.kysely, sessionId, now()) } };
    },
  );

  app.post(
    '/totp/disable',
    {
      config: { auth: 'authenticated' },
      schema: {
        tags: [TAG],
        summary: '关闭自己账号的两步验证 Turn TOTP off for one’s own account',
        description:
          'Proven by the current password or a code (6-digit or recovery). A wrong proof is 400 and counts toward the sign-in throttle. ' +
          'If one of your roles requires TOTP, admin routes then answer 403 TOTP_SETUP_REQUIRED until you enrol again.',
        body: IdentityProofBody,
        response: { 204: Type.Null({ description: 'TOTP is off; recovery codes deleted' }) },
      },
    },
    async (req, reply) => {
      const { id, username } = req.auth;
      await throttle.guard(username, req.ip, () => mfa.disable(id, req.body), isCredentialFailure);
      await app.audit(req, 'auth.totp-disable', 'user', id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/totp/recovery-codes',
    {
      config: { auth: 'authenticated' },
      schema: {
        tags: [TAG],
        summary: '重新生成恢复码 Replace one’s recovery codes with ten new ones',
        description:
          'Proven as for POST /api/auth/totp/disable (current password, or a 6-digit or recovery code); a wrong proof is 400 and counts toward the sign-in throttle. ' +
          'Every earlier recovery code stops working; the new ones are shown only in this answer.',
        body: IdentityProofBody,
        response: { 200: data(Type.Object({ recoveryCodes: Type.Array(Type.String()) })) },
      },
    },
    async (req) => {
      const { id, username } = req.auth;
      const recoveryCodes = await throttle.guard(
        username,
        req.ip,
        () => mfa.regenerateRecoveryCodes(id, req.body),
        isCredentialFailure,
      );
      await app.audit(req, 'auth.totp-recovery-codes', 'user', id);
      return { data: { recoveryCodes } };
    },
  );

  app.post(
    '/refresh',
    {
      config: { auth: 'public' },
      schema: {
        tags: [TAG],
        summary: '用刷新令牌换取新的一对令牌 Exchange a refresh token for a new pair',
        description:
          'Rotates the pair: the presented refresh token is void at once. Presenting an already-rotated token again is treated as theft and revokes every token of that sign-in (401). ' +
          'A failed refresh means: sign in again.',
        body: RefreshBody,
        response: { 200: data(TokenPairSchema) },
      },
    },
    async (req) => ({
      data: await auth.refresh(req.body.refreshToken, clientInfo(req)),
    }),
  );

  app.post(
    '/logout',
    {
      config: { auth: 'authenticated', whilePending: ANY_PENDING },
      schema: {
        tags: [TAG],
        summary: '退出登录：吊销所出示的刷新令牌 Sign out: revoke the presented refresh token',
        description:
          'Revokes the presented refresh token and every token rotated from the same sign-in (other devices stay signed in). ' +
          'The access token is stateless and stays usable until its own expiry (ACCESS_TOKEN_TTL, 15 minutes by default).',
        body: Type.Optional(LogoutBody),
        response: { 204: Type.Null({ description: 'Signed out' }) },
      },
    },
    async (req, reply) => {
      await auth.logout(req.auth.id, req.body?.refreshToken);
      return reply.code(204).send(null);
    },
  );

  // On the untyped instance: this route sends the answer it serialised earlier (as bytes), which the schema-typed
  // reply would refuse; the bytes are made by this route's own response schema (reply.serialize below).
  parent.get(
    '/me',
    {
      config: { auth: 'authenticated', whilePending: ANY_PENDING },
      schema: {
        tags: [TAG],
        summary: '当前用户、角色、权限掩码与可见菜单树 The signed-in user, roles, aggregate mask and visible menu tree',
        description:
          'A menu is visible when any of the user’s enabled roles holds a grant on it, even with bits 0; its ancestors are included so the tree is complete.',
        response: {
          200: data(
            Type.Intersect([UserSummarySchema, AccountStateSchema, Type.Object({ menus: Type.Array(MenuNodeSchema) })]),
          ),
        },
      },
    },
    // Not async: a body serialised earlier is sent in the same tick, without a promise resolved with the reply.
    (req, reply) => {
      const a = req.auth;
      // The answer is a function of the grants (cached per access revision, so a new object after any change) and
      // the user's own row, both read fresh by the guard: serialised once per such pair, not per request (issue 13).
      let bodies = meBodies.get(a.grants);
      if (!bodies) meBodies.set(a.grants, (bodies = new Map()));
      const key = `${a.id}\u0000${a.username}\u0000${a.nickname}\u0000${a.mustChangePassword}\u0000${a.totpEnabled}\u0000${passkeyVerified(a)}`;
      const body = bodies.get(key);
      if (body !== undefined) return reply.type('application/json; charset=utf-8').send(body);
      return visibleMenuTree(app.db.kysely, a).then((tree) => {
        const state = {
          mustChangePassword: a.mustChangePassword,
          totpEnabled: a.totpEnabled,
          totpRequired: a.grants.requireTotp,
          passkeyVerified: passkeyVerified(a),
        };
        // Kept as UTF-8 bytes: a string with Chinese in it would be re-encoded on every send (a tenth of the route's CPU).
        const fresh = Buffer.from(
          String(reply.serialize({ data: { ...publicUser(a), ...state, menus: normalizeTree(tree) } })),
        );
        if (bodies.size >= ME_BODIES_PER_GRANTS) bodies.clear();
        bodies.set(key, fresh);
        return reply.type('application/json; charset=utf-8').send(fresh);
      });
    },
  );

  app.put(
    '/password',
    {
      config: { auth: 'authenticated', whilePending: ANY_PENDING },
      schema: {
        tags: [TAG],
        summary: '修改自己的密码 Change one’s own password',
        description:
          'Increments token_version: every token on every device dies. The response carries a fresh pair for this caller. ' +
          'A wrong oldPassword is 400 and counts toward the same failure limit as sign-in (429 with Retry-After).',
        body: ChangePasswordBody,
        response: { 200: data(TokenPairSchema) },
      },
    },
    async (req) => {
      const { oldPassword, newPassword } = req.body;
      await assertPasswordPolicy('newPassword', newPassword, app.config.passwordPolicy);
      const { id, username, sessionId } = req.auth;
      const pair = await throttle.guard(
        username,
        req.ip,
        () => auth.changePassword(id, oldPassword, newPassword, clientInfo(req), sessionId),
        isCredentialFailure,
      );
      await app.audit(req, 'auth.change-password', 'user', req.auth.id);
      return { data: pair };
    },
  );
}

export async function permissionRoutes(parent: FastifyInstance) {
  let pointsBody: Buffer | undefined;
  // On the untyped instance, as /me: the answer is sent as the bytes this route's own schema made once.
  parent.get(
    '/',
    {
      config: { auth: 'authenticated' },
      schema: {
        tags: [TAG],
        summary: '十个权限点 The ten permission points',
        response: { 200: data(Type.Array(PermissionPointSchema)) },
      },
    },
    // A constant answer: serialised once, then sent as the same bytes.
    async (_req, reply) => {
      pointsBody ??= Buffer.from(String(reply.serialize({ data: [...PERMISSION_POINTS] })));
      return reply.type('application/json; charset=utf-8').send(pointsBody);
    },
  );
}

declare module 'fastify' {
  interface FastifyInstance {
    authService: AuthService;
  }
}
