import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { transact } from '../../db/transaction.js';
import { unauthorized } from '../../errors.js';
import { deviceLabel } from '../sessions/device.js';
import { loadUserAccess } from './access.js';
import { PasskeyService, PASSKEY_NAME_MAX, relyingPartyOf } from './passkeys.js';
import { assertRecentProof, recordProof, REAUTH_WINDOW_MS } from './reauth.js';
import { CredentialError, passkeyProof } from './service.js';
import type { LoginThrottle } from './throttle.js';
import { clientInfo, failureReason, worthLoggingWith } from './sign-in.js';
import { LoginResultSchema, data } from './schemas.js';

const TAG = '认证 Auth';

const B64URL = (max: number) => Type.String({ minLength: 1, maxLength: max, pattern: '^[A-Za-z0-9_-]+={0,2}$' });
/**
 * The extension outputs a browser may add (we ask for none but credProps, which the library requests): named, so the
 * object is closed like every other body; their content is for the library to read.
 */
const ExtensionResults = Type.Object(
  {
    credProps: Type.Optional(Type.Unknown()),
    prf: Type.Optional(Type.Unknown()),
    largeBlob: Type.Optional(Type.Unknown()),
    hmacCreateSecret: Type.Optional(Type.Unknown()),
    appid: Type.Optional(Type.Unknown()),
    appidExclude: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);
/** The credential's common fields as the browser returns it (@simplewebauthn/browser's JSON). */
const credentialOf = <T extends import('@sinclair/typebox').TProperties>(response: T) =>
  Type.Object(
    {
      id: B64URL(1400),
      rawId: B64URL(1400),
      type: Type.Literal('public-key'),
      response: Type.Object(response, { additionalProperties: false }),
      clientExtensionResults: ExtensionResults,
      authenticatorAttachment: Type.Optional(Type.String({ maxLength: 32 })),
    },
    { additionalProperties: false },
  );
/** navigator.credentials.create()'s answer. */
const RegistrationJson = credentialOf({
  clientDataJSON: B64URL(8192),
  attestationObject: B64URL(65536),
  authenticatorData: Type.Optional(B64URL(8192)),
  transports: Type.Optional(Type.Array(Type.String({ maxLength: 16 }), { maxItems: 8 })),
  publicKeyAlgorithm: Type.Optional(Type.Integer()),
  publicKey: Type.Optional(B64URL(8192)),
});
/** navigator.credentials.get()'s answer. */
const AuthenticationJson = credentialOf({
  clientDataJSON: B64URL(8192),
  authenticatorData: B64URL(8192),
  signature: B64URL(2048),
  userHandle: Type.Optional(B64URL(1024)),
});
const Ceremony = Type.String({
  minLength: 1,
  maxLength: 4096,
  description: 'The `ceremony` of the options answer, sent back unchanged (valid 5 minutes, once)',
});
const PasskeyName = Type.String({
  minLength: 1,
  maxLength: PASSKEY_NAME_MAX,
  pattern: '\\S',
  description: `The owner's name for it, 1–${PASSKEY_NAME_MAX} characters`,
});

const PasskeySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'Last sign-in with it' }),
  provider: Type.Union([Type.String(), Type.Null()], {
    description: 'Where it lives when the authenticator is well known (iCloud 钥匙串, Windows Hello…), else null',
  }),
  synced: Type.Boolean({ description: 'Synced across devices by a password manager or platform account' }),
  transports: Type.Array(Type.String(), { description: 'usb, nfc, ble, internal, hybrid' }),
  sessions: Type.Integer({ minimum: 0, description: 'Live sessions opened with it' }),
});

const OptionsAnswer = (what: string) =>
  Type.Object({
    options: Type.Object(
      {},
      { additionalProperties: true, description: `${what} (WebAuthn JSON, for @simplewebauthn/browser)` },
    ),
    ceremony: Type.String({ description: 'Send back with the answer' }),
  });

/**
 * Passkeys of one's own account, and sign-in with one (issue 53). Registered inside the auth routes, which hand over
 * their sign-in throttle: a passkey sign-in is counted per account and address like a password.
 */
export default async function passkeyRoutes(
  parent: FastifyInstance,
  opts: { throttle: LoginThrottle; now?: () => number },
) {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const now = opts.now ?? Date.now;
  const passkeys = new PasskeyService(app.db.kysely, app.tokens, now);
  const { throttle } = opts;

  app.get(
    '/',
    {
      config: { auth: 'authenticated', whilePending: ['TOTP_SETUP_REQUIRED'] },
      schema: {
        tags: [TAG],
        summary: '我的通行密钥 One’s own passkeys',
        response: { 200: data(Type.Array(PasskeySchema)) },
      },
    },
    async (req) => ({ data: await passkeys.list(req.auth.id) }),
  );

  app.post(
    '/register/options',
    {
      config: { auth: 'authenticated', whilePending: ['TOTP_SETUP_REQUIRED'] },
      schema: {
        tags: [TAG],
        summary: '开始添加通行密钥 Start adding a passkey',
        description:
          'Options for navigator.credentials.create() (discoverable credential, user verification required, no attestation) and a ceremony token. ' +
          `Needs a proof of identity from the last ${REAUTH_WINDOW_MS / 60_000} minutes (403 REAUTH_REQUIRED). ` +
          'The site must be opened by host name (PUBLIC_BASE_URL, or a host in TRUSTED_HOSTS; `localhost` locally): an IP address cannot carry passkeys (400).',
        response: { 200: data(OptionsAnswer('PublicKeyCredentialCreationOptions')) },
      },
    },
    async (req) => {
      const rp = relyingPartyOf(req);
      await assertRecentProof(app.db.kysely, req.auth.sessionId, now());
      return { data: await passkeys.registrationOptions(rp, req.auth) };
    },
  );

  app.post(
    '/',
    {
      config: { auth: 'authenticated', whilePending: ['TOTP_SETUP_REQUIRED'] },
      schema: {
        tags: [TAG],
        summary: '完成添加通行密钥 Finish adding a passkey',
        description:
          'With the authenticator’s answer to the options of POST /api/auth/passkeys/register/options. Only the public key and the signature counter are stored. ' +
          '400 when the answer does not verify (wrong origin, challenge or RP ID; no user verification); 409 for a passkey already added or beyond 10.',
        body: Type.Object(
          { ceremony: Ceremony, credential: RegistrationJson, name: Type.Optional(PasskeyName) },
          { additionalProperties: false },
        ),
        response: { 200: data(PasskeySchema) },
      },
    },
    async (req) => {
      const rp = relyingPartyOf(req);
      await assertRecentProof(app.db.kysely, req.auth.sessionId, now());
      const name = req.body.name?.trim() || deviceLabel(String(req.headers['user-agent'] ?? '')) || '通行密钥';
      const item = await passkeys.register(
        rp,
        req.auth,
        req.body.ceremony,
        req.body.credential as unknown as RegistrationResponseJSON,
        name.slice(0, PASSKEY_NAME_MAX),
      );
      await app.audit(req, 'auth.passkey-add', 'user', req.auth.id, { name: item.name });
      return { data: item };
    },
  );

  app.patch(
    '/:id',
    {
      config: { auth: 'authenticated', whilePending: ['TOTP_SETUP_REQUIRED'] },
      schema: {
        tags: [TAG],
        summary: '重命名通行密钥 Rename a passkey',
        params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
        body: Type.Object({ name: PasskeyName }, { additionalProperties: false }),
        response: { 200: data(PasskeySchema) },
      },
    },
    async (req) => {
      const item = await passkeys.rename(req.auth.id, req.params.id, req.body.name.trim());
      await app.audit(req, 'auth.passkey-rename', 'user', req.auth.id, { name: item.name });
      return { data: item };
    },
  );

  app.delete(
    '/:id',
    {
      config: { auth: 'authenticated', whilePending: ['TOTP_SETUP_REQUIRED'] },
      schema: {
        tags: [TAG],
        summary: '删除通行密钥 Remove a passkey',
        description:
          'With `endSessions=true`, every other session opened with this passkey ends too (SESSION_ENDED); this device stays signed in. ' +
          `Needs a proof of identity from the last ${REAUTH_WINDOW_MS / 60_000} minutes (403 REAUTH_REQUIRED).`,
        params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
        querystring: Type.Object(
          { endSessions: Type.Optional(Type.Boolean({ description: 'Also end the sessions it opened' })) },
          { additionalProperties: false },
        ),
        response: {
          200: data(Type.Object({ signedOut: Type.Integer({ minimum: 0, description: 'Sessions ended' }) })),
        },
      },
    },
    async (req) => {
      const { id: userId, sessionId } = req.auth;
      await assertRecentProof(app.db.kysely, sessionId, now());
      const { name, ended } = await transact(app.db.kysely, async (trx) => {
        const ids = req.query.endSessions ? await passkeys.sessionsOpenedWith(userId, req.params.id, trx) : [];
        const ended = await app.authService.endSessions(
          { ids: ids.filter((s) => s !== sessionId), userId },
          'SESSION_ENDED',
          userId,
          trx,
        );
        return { name: await passkeys.remove(userId, req.params.id, trx), ended };
      });
      await app.authService.announce(ended);
      await app.audit(req, 'auth.passkey-remove', 'user', userId, {
        name,
        ...(ended.length > 0 && { signedOut: ended.length }),
      });
      return { data: { signedOut: ended.length } };
    },
  );

  app.post(
    '/reauth/options',
    {
      config: { auth: 'authenticated', whilePending: ['TOTP_SETUP_REQUIRED'] },
      schema: {
        tags: [TAG],
        summary: '开始用通行密钥验证身份 Start proving it is you with a passkey',
        description:
          'The passkey alternative to the password of POST /api/auth/reauth: options for navigator.credentials.get() listing only your own passkeys, and a ceremony token bound to this account. ' +
          '409 when the account has no passkey.',
        response: { 200: data(OptionsAnswer('PublicKeyCredentialRequestOptions')) },
      },
    },
    async (req) => ({ data: await passkeys.reauthOptions(relyingPartyOf(req), req.auth) }),
  );

  app.post(
    '/reauth',
    {
      config: { auth: 'authenticated', whilePending: ['TOTP_SETUP_REQUIRED'] },
      schema: {
        tags: [TAG],
        summary: '用通行密钥验证身份 Prove it is you with a passkey',
        description:
          'With the authenticator’s answer to POST /api/auth/passkeys/reauth/options: counts as POST /api/auth/reauth does ' +
          `(account-security changes work from this session for ${REAUTH_WINDOW_MS / 60_000} minutes). ` +
          'An answer that does not verify (another account’s passkey, wrong origin, replayed, counter gone back) is 400 and counts toward the sign-in throttle.',
        body: Type.Object({ ceremony: Ceremony, credential: AuthenticationJson }, { additionalProperties: false }),
        response: {
          200: data(
            Type.Object({ until: Type.String({ format: 'date-time', description: 'When the proof stops counting' }) }),
          ),
        },
      },
    },
    async (req) => {
      const { id, username, sessionId, tokenVersion } = req.auth;
      if (!sessionId) throw unauthorized('请重新登录后再试 (this token belongs to no session)');
      const rp = relyingPartyOf(req);
      const credential = req.body.credential as unknown as AuthenticationResponseJSON;
      const row = await passkeys.find(credential.id);
      await throttle.guard(
        username,
        req.ip,
        async () => {
          const proof = await passkeys.authenticate(rp, req.body.ceremony, credential, row, { id, tokenVersion });
          // One proof per ceremony: the same answer sent again finds it spent.
          if (!(await throttle.store.claimOnce(`wa:${proof.ceremonyId}`, now())))
            throw new CredentialError(
              'VALIDATION_ERROR',
              '此次通行密钥验证已使用，请重试 (ceremony already used)',
              'PASSKEY_INVALID',
              id,
            );
        },
        (e) => e instanceof CredentialError,
      );
      return { data: { until: await recordProof(app.db.kysely, sessionId, now()) } };
    },
  );

  app.post(
    '/login/options',
    {
      config: { auth: 'public' },
      schema: {
        tags: [TAG],
        summary: '开始通行密钥登录 Start a passkey sign-in',
        description:
          'Options for navigator.credentials.get() with no credential list (the browser offers this site’s passkeys; no username is asked) and a ceremony token.',
        response: { 200: data(OptionsAnswer('PublicKeyCredentialRequestOptions')) },
      },
    },
    async (req) => ({ data: await passkeys.authenticationOptions(relyingPartyOf(req)) }),
  );

  app.post(
    '/login',
    {
      config: { auth: 'public' },
      schema: {
        tags: [TAG],
        summary: '用通行密钥登录 Sign in with a passkey',
        description:
          'With the authenticator’s answer to POST /api/auth/passkeys/login/options. A passkey is both factors (a key bound to this site, unlocked by PIN or biometrics): ' +
          'no TOTP step follows, and it satisfies a role’s two-step requirement. The session is like any other: listed, ended, forced out, logged (reason PASSKEY). ' +
          'An answer that does not verify (unknown passkey, wrong origin, replayed, counter gone back) is 401, counted by the sign-in throttle (429 with Retry-After).',
        body: Type.Object({ ceremony: Ceremony, credential: AuthenticationJson }, { additionalProperties: false }),
        response: { 200: data(LoginResultSchema) },
      },
    },
    async (req) => {
      const rp = relyingPartyOf(req);
      const credential = req.body.credential as unknown as AuthenticationResponseJSON;
      const owner = await passkeys.find(credential.id);
      const client = clientInfo(req);
      const attempt = {
        event: 'login' as const,
        // An unknown passkey names nobody: the log shows what the server knows.
        username: owner?.username ?? '',
        ip: client.ip,
        userAgent: client.userAgent,
        deviceLabel: deviceLabel(client.userAgent),
        clientKind: client.clientKind,
        actorId: null,
        actorUsername: '',
        userId: owner?.user_id ?? null,
      };
      try {
        // An unknown credential names no account: its attempts share one account key no username can have (a
        // username is letters, digits and _ . -), so the address limits are what hold such guessing back.
        const { sessionId, ...result } = await throttle.guard(
          owner?.username ?? '(unknown passkey)',
          req.ip,
          async () => {
            const proof = await passkeys.authenticate(rp, req.body.ceremony, credential, owner);
            // One sign-in per ceremony: the same answer sent again finds it spent.
            if (!(await throttle.store.claimOnce(`wa:${proof.ceremonyId}`, now())))
              throw new CredentialError(
                'UNAUTHORIZED',
                '此次通行密钥验证已使用，请重试 (ceremony already used)',
                'PASSKEY_INVALID',
                proof.userId,
              );
            const access = await loadUserAccess(app.db.kysely, proof.userId);
            if (access?.status !== 'enabled')
              throw new CredentialError(
                'UNAUTHORIZED',
                '账号已停用或不存在 (account disabled)',
                'ACCOUNT_DISABLED',
                proof.userId,
              );
            return app.authService.signIn(access, client, access.tokenVersion, passkeyProof(proof.passkeyId));
          },
          (e) => e instanceof CredentialError,
        );
        await app.loginLog.record([{ ...attempt, result: 'success', reason: 'PASSKEY', sessionId }]);
        return { data: result };
      } catch (e) {
        if (await worthLoggingWith(throttle, e))
          await app.loginLog.record([{ ...attempt, result: 'failure', reason: failureReason(e), sessionId: null }]);
        throw e;
      }
    },
  );
}
