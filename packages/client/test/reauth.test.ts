/**
 * Account-security changes through the SDK against a real server: enrolling TOTP from a session whose sign-in is
 * older than ten minutes throws ReauthRequiredError unless the method is given the proof (the current password, or
 * with TOTP on a code), in which case it re-authenticates and retries once. A passkey proves it too.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb, getTestInstance, type TestInstance } from '../../server/test/helpers.js';
import { USER_PASSWORD, insertUser } from '../../server/test/auth-fixtures.js';
import { ageSessions } from '../../server/test/reauth-fixtures.js';
import { totpCode } from '../../server/src/admin/auth/totp.js';
import { SoftAuthenticator } from '../../server/test/soft-authenticator.js';
import { ApiError, ReauthRequiredError, createSession, type TianjiSession } from '../src/index.js';

describeEachDb('re-authentication before account-security changes (SDK)', (dialect) => {
  let t: TestInstance;
  let baseUrl: string;
  let n = 0;
  beforeAll(async () => {
    t = await getTestInstance(dialect);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t?.close());

  /** A new user signed in through the SDK (at `base`); `forbidden` collects what reached onForbidden. */
  async function signedIn(
    base = baseUrl,
  ): Promise<{ session: TianjiSession; username: string; forbidden: ApiError[] }> {
    const username = `sdk_reauth${++n}`;
    await insertUser(t.db, username);
    const forbidden: ApiError[] = [];
    const session = createSession({ baseUrl: base, onForbidden: (e) => forbidden.push(e) });
    await session.login(username, USER_PASSWORD);
    return { session, username, forbidden };
  }

  it('right after the sign-in: setupTotp and enableTotp need no proof and answer ten recovery codes', async () => {
    const { session } = await signedIn();
    const setup = await session.setupTotp();
    expect(setup.otpauthUri).toMatch(/^otpauth:\/\/totp\//);
    const enabled = await session.enableTotp(totpCode(setup.secret, Date.now()));
    expect(enabled.recoveryCodes).toHaveLength(10);
    session.close();
  });

  it('an old session without a proof: ReauthRequiredError with the server’s sentence, not onForbidden', async () => {
    const { session, username, forbidden } = await signedIn();
    await ageSessions(t.db, username);
    const refused = await session.setupTotp().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ReauthRequiredError);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({
      status: 403,
      code: 'REAUTH_REQUIRED',
      message: expect.stringMatching(/^此操作需要先验证身份/),
    });
    expect(forbidden).toEqual([]);
    expect(session.signedIn).toBe(true);
    session.close();
  });

  it('an old session given the password re-authenticates and retries: setup, then enable within the window', async () => {
    const { session, username } = await signedIn();
    await ageSessions(t.db, username);
    const wrong = await session.setupTotp({ password: 'not-the-password' }).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(ApiError);
    expect(wrong).toMatchObject({ status: 400, message: '参数 password 无效：密码不正确' });

    const setup = await session.setupTotp({ password: USER_PASSWORD });
    expect(setup.secret).toMatch(/^[A-Z2-7]+$/);
    // The proof counts for ten minutes: enabling right after asks nothing again.
    const enabled = await session.enableTotp(totpCode(setup.secret, Date.now()), { signOutOthers: true });
    expect(enabled).toMatchObject({ recoveryCodes: expect.any(Array), signedOut: 0 });
    expect((await session.me()).totpEnabled).toBe(true);
    session.close();
  });

  it('enableTotp given the proof on an old session; reauthenticate with a code once TOTP is on', async () => {
    const { session, username } = await signedIn();
    const setup = await session.setupTotp();
    await ageSessions(t.db, username);
    await expect(session.enableTotp(totpCode(setup.secret, Date.now()))).rejects.toBeInstanceOf(ReauthRequiredError);
    const enabled = await session.enableTotp(totpCode(setup.secret, Date.now()), {
      proof: { password: USER_PASSWORD },
    });
    expect(enabled.recoveryCodes).toHaveLength(10);

    const until = await session.reauthenticate({ code: enabled.recoveryCodes[0] });
    expect(Date.parse(until)).toBeGreaterThan(Date.now());
    session.close();
  });

  it('new recovery codes and turning TOTP off take the proof in the call; a wrong one is refused', async () => {
    const { session } = await signedIn();
    const setup = await session.setupTotp();
    const { recoveryCodes } = await session.enableTotp(totpCode(setup.secret, Date.now() - 30_000));

    await expect(session.regenerateRecoveryCodes({ password: 'not-the-password' })).rejects.toMatchObject({
      status: 400,
      message: '参数 password 无效：密码不正确',
    });
    const fresh = await session.regenerateRecoveryCodes({ password: USER_PASSWORD });
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(recoveryCodes[0]);

    await session.disableTotp({ code: fresh[0] });
    expect(session.user?.totpEnabled).toBe(false);
    session.close();
  });

  it('a passkey proves it instead of the password; a refused answer is a 400 and the session goes on', async () => {
    // Passkeys need a host name: the same server as localhost.
    const base = baseUrl.replace('127.0.0.1', 'localhost');
    const { session, username } = await signedIn(base);
    const authenticator = new SoftAuthenticator(base);
    const start = await session.api.POST('/api/auth/passkeys/register/options');
    const { options, ceremony } = start.data!.data as { options: { challenge: string }; ceremony: string };
    await session.api.POST('/api/auth/passkeys', {
      body: { ceremony, credential: authenticator.create(options as never) } as never,
    });
    await ageSessions(t.db, username);
    await expect(session.setupTotp()).rejects.toBeInstanceOf(ReauthRequiredError);

    const phished = await session.passkeyReauthOptions();
    const refused = await session
      .reauthenticateWithPasskey(
        phished.ceremony,
        authenticator.get(phished.options as never, { origin: 'https://phish.example' }),
      )
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 400, message: expect.stringMatching(/^通行密钥验证未通过/) });
    expect(session.signedIn).toBe(true);

    const proof = await session.passkeyReauthOptions();
    const until = await session.reauthenticateWithPasskey(proof.ceremony, authenticator.get(proof.options as never));
    expect(Date.parse(until)).toBeGreaterThan(Date.now());
    expect((await session.setupTotp()).secret).toMatch(/^[A-Z2-7]+$/);
    session.close();
  });
});
