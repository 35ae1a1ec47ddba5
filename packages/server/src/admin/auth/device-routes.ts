import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { publicBaseUrl } from '../../http/public-url.js';
import { LocationSchema } from '../shared/location.js';
import { Timestamp } from '../shared/schemas.js';
import { deviceLabel, type ClientKind } from '../sessions/device.js';
import { loadUserAccess } from './access.js';
import { formatUserCode } from './device-codes.js';
import {
  CODE_WINDOW_MS,
  CODES_PER_ADDRESS,
  DEVICE_CODE_TTL_S,
  DEVICE_POLL_INTERVAL_S,
  DeviceFlowService,
  UnknownUserCode,
  type Approver,
} from './device-flow.js';
import { assertRecentProof, REAUTH_WINDOW_MS } from './reauth.js';
import { SignInSuperseded, type SignInProof } from './service.js';
import { clientInfo, failureReason } from './sign-in.js';
import type { LoginThrottle } from './throttle.js';
import { LoginResultSchema, data } from './schemas.js';
import type { AuthContext } from './guard.js';

const TAG = '认证 Auth';

const UserCodeParams = Type.Object({
  userCode: Type.String({
    minLength: 1,
    maxLength: 32,
    description: 'The code the device shows, e.g. BCDF-GHJK (case, dash and spaces do not matter)',
  }),
});

const DeviceRequestSchema = Type.Object({
  userCode: Type.String({ description: 'As the device shows it: BCDF-GHJK' }),
  clientName: Type.String({ description: 'The name the device gave itself, or its browser and system' }),
  deviceLabel: Type.String({ description: 'Program and system read from its user agent, e.g. node 20 · Linux' }),
  ip: Type.String({ description: 'The address the device asked from (honours TRUST_PROXY)' }),
  location: LocationSchema,
  createdAt: { ...Timestamp, description: 'Asked at' },
  expiresAt: { ...Timestamp, description: 'The code stops working then' },
  username: Type.Union([Type.String(), Type.Null()], {
    description: 'Only this account may approve (the device asked for it); null: any signed-in user',
  }),
});

const decisionNote =
  '404 NOT_FOUND (授权码不存在或已过期) for a code that is unknown, expired, decided or used; such lookups count toward the sign-in throttle per account and address (429 with Retry-After), so codes cannot be found by trying. ' +
  '403 FORBIDDEN when the device asked for another account; 409 CONFLICT when the code was decided already.';

/**
 * Sign-in on a device without a browser of its own (OAuth 2.0 device authorization grant, RFC 8628; issue 53):
 * `tianji login --web` and the SDK. Registered inside the auth routes, which hand over their sign-in throttle.
 */
export default async function deviceRoutes(
  parent: FastifyInstance,
  opts: { throttle: LoginThrottle; now?: () => number },
) {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const now = opts.now ?? Date.now;
  const devices = new DeviceFlowService(app.db.kysely, now);
  const { throttle } = opts;
  /** Runs a lookup by user code as one counted attempt of the signed-in user from this address. */
  const counted = <T>(auth: AuthContext, ip: string, fn: () => Promise<T>) =>
    throttle.guard(auth.username, ip, fn, (e) => e instanceof UnknownUserCode);
  const approverOf = (auth: AuthContext): Approver => ({
    id: auth.id,
    username: auth.username,
    tokenVersion: auth.tokenVersion,
    amr: auth.amr,
  });

  app.post(
    '/code',
    {
      config: { auth: 'public' },
      schema: {
        tags: [TAG],
        summary: '设备登录：申请授权码 Device sign-in: ask for a code',
        description:
          'Step 1 of the device authorization grant (RFC 8628). Answers a `deviceCode` (the device’s secret: keep it, poll POST /api/auth/device/token with it) ' +
          'and a `userCode` to show to the person, who opens `verificationUri` in a signed-in browser and enters it (or opens `verificationUriComplete`). ' +
          `The code lives ${DEVICE_CODE_TTL_S / 60} minutes and is used once. At most ${CODES_PER_ADDRESS} codes per address per ${CODE_WINDOW_MS / 60_000} minutes (429 with Retry-After). ` +
          'With `username`, only that account may approve. The session the device gets is recorded with this request’s address, user agent and X-Client-Kind (cli when absent).',
        body: Type.Object(
          {
            clientName: Type.Optional(
              Type.String({
                minLength: 1,
                maxLength: 64,
                pattern: '\\S',
                description: 'A name for the device, shown to the approver (default: from the User-Agent)',
              }),
            ),
            username: Type.Optional(
              Type.String({ minLength: 1, maxLength: 64, description: 'Only this account may approve' }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: data(
            Type.Object({
              deviceCode: Type.String({ description: 'The device’s secret for polling (43 characters, base64url)' }),
              userCode: Type.String({ description: 'Eight letters shown as BCDF-GHJK, for the person to enter' }),
              verificationUri: Type.String({
                description:
                  'Where to enter the code: <PUBLIC_BASE_URL>/device, or /device when no trusted base is known',
              }),
              verificationUriComplete: Type.String({ description: 'The same page with the code filled in' }),
              expiresIn: Type.Integer({ description: 'Seconds the codes live' }),
              interval: Type.Integer({ description: 'Seconds to wait between polls' }),
            }),
          ),
        },
      },
    },
    async (req) => {
      const client = clientInfo(req);
      const label = deviceLabel(client.userAgent);
      const { deviceCode, userCode } = await devices.start({
        clientName: (req.body.clientName?.trim() || label || '未知设备').slice(0, 64),
        usernameHint: req.body.username?.trim() || null,
        ip: client.ip,
        userAgent: client.userAgent,
        deviceLabel: label,
        clientKind: client.clientKind === 'other' ? 'cli' : client.clientKind,
      });
      const shown = formatUserCode(userCode);
      const verificationUri = `${publicBaseUrl(req)}/device`;
      return {
        data: {
          deviceCode,
          userCode: shown,
          verificationUri,
          verificationUriComplete: `${verificationUri}?code=${shown}`,
          expiresIn: DEVICE_CODE_TTL_S,
          interval: DEVICE_POLL_INTERVAL_S,
        },
      };
    },
  );

  app.get(
    '/requests/:userCode',
    {
      config: { auth: 'authenticated' },
      schema: {
        tags: [TAG],
        summary: '设备登录：查看待批准的请求 Device sign-in: the request behind a code',
        description:
          'What the approval page shows before the person approves: the device’s name, address and place, and for whom it asked. ' +
          decisionNote,
        params: UserCodeParams,
        response: { 200: data(DeviceRequestSchema) },
      },
    },
    async (req) => {
      const row = await counted(req.auth, req.ip, () => devices.pending(req.params.userCode));
      return {
        data: {
          userCode: formatUserCode(row.user_code),
          clientName: row.client_name,
          deviceLabel: row.device_label,
          ip: row.ip,
          location: app.ipLookup.place(row.ip),
          createdAt: row.created_at,
          expiresAt: row.expires_at,
          username: row.username_hint,
        },
      };
    },
  );

  app.post(
    '/requests/:userCode/approve',
    {
      config: { auth: 'authenticated' },
      schema: {
        tags: [TAG],
        summary: '设备登录：批准 Device sign-in: approve',
        description:
          'The device’s next poll gets a session of the approving account (listed with the device’s address and client kind, method `device`, login log reason DEVICE), ' +
          'valid only while the account’s password and status stay as they are now. ' +
          `Needs a proof of identity from the last ${REAUTH_WINDOW_MS / 60_000} minutes (403 REAUTH_REQUIRED). ${decisionNote}`,
        params: UserCodeParams,
        response: { 200: data(Type.Object({ approved: Type.Literal(true) })) },
      },
    },
    async (req) => {
      await assertRecentProof(app.db.kysely, req.auth.sessionId, now());
      const row = await counted(req.auth, req.ip, () =>
        devices.decide(req.params.userCode, approverOf(req.auth), 'approved'),
      );
      await app.audit(req, 'auth.device-approve', 'user', req.auth.id, {
        clientName: row.client_name,
        ip: row.ip,
      });
      return { data: { approved: true as const } };
    },
  );

  app.post(
    '/requests/:userCode/deny',
    {
      config: { auth: 'authenticated' },
      schema: {
        tags: [TAG],
        summary: '设备登录：拒绝 Device sign-in: refuse',
        description: `The device’s next poll answers 400 ACCESS_DENIED. ${decisionNote}`,
        params: UserCodeParams,
        response: { 204: Type.Null({ description: 'Refused' }) },
      },
    },
    async (req, reply) => {
      const row = await counted(req.auth, req.ip, () =>
        devices.decide(req.params.userCode, approverOf(req.auth), 'denied'),
      );
      await app.audit(req, 'auth.device-deny', 'user', req.auth.id, { clientName: row.client_name, ip: row.ip });
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/token',
    {
      config: { auth: 'public' },
      schema: {
        tags: [TAG],
        summary: '设备登录：轮询结果 Device sign-in: poll for the session',
        description:
          'Poll with the `deviceCode` every `interval` seconds. Until a decision: 400 AUTHORIZATION_PENDING; polled sooner: 400 SLOW_DOWN, and the interval grows by 5 s; ' +
          'refused: 400 ACCESS_DENIED; expired, unknown or already used: 400 EXPIRED_TOKEN (ask for a new code). ' +
          'Approved: the same answer as POST /api/auth/login, exactly once. 401 when the approving account’s password or status changed since the approval.',
        body: Type.Object(
          { deviceCode: Type.String({ minLength: 1, maxLength: 128 }) },
          { additionalProperties: false },
        ),
        response: { 200: data(LoginResultSchema) },
      },
    },
    async (req) => {
      const claimed = await devices.poll(req.body.deviceCode);
      const { row } = claimed;
      const client = { ip: row.ip, userAgent: row.user_agent, clientKind: row.client_kind as ClientKind };
      const proof: SignInProof = { method: 'device', amr: claimed.amr, passkeyId: null };
      const access = await loadUserAccess(app.db.kysely, claimed.approverId);
      const attempt = {
        event: 'login' as const,
        username: access?.username ?? '',
        ip: row.ip,
        userAgent: row.user_agent,
        deviceLabel: row.device_label,
        clientKind: client.clientKind,
        actorId: null,
        actorUsername: '',
        userId: claimed.approverId,
      };
      try {
        if (!access) throw new SignInSuperseded();
        const { sessionId, ...result } = await app.authService.signIn(access, client, claimed.approverVersion, proof);
        await devices.issued(row.id, sessionId);
        await app.loginLog.record([{ ...attempt, result: 'success', reason: 'DEVICE', sessionId }]);
        return { data: result };
      } catch (e) {
        await app.loginLog.record([{ ...attempt, result: 'failure', reason: failureReason(e), sessionId: null }]);
        throw e;
      }
    },
  );
}
