import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { bearer, describeEachDb, getTestInstance, type TestInstance } from './helpers.js';
import { USER_PASSWORD, insertUser } from './auth-fixtures.js';
import { totpCode } from '../src/admin/auth/totp.js';

/**
 * Account-security changes ask for a fresh proof that the person is the account's owner (GitHub's sudo mode,
 * Keycloak's maximum age of authentication): enrolling TOTP works within ten minutes of the sign-in or of
 * POST /api/auth/reauth with the current password (or a TOTP code), never with an access token alone.
 */
describeEachDb('re-authentication before account-security changes', (dialect) => {
  let t: TestInstance;
  let clock = Date.now();
  let n = 0;
  const MINUTE = 60_000;

  beforeAll(async () => {
    t = await getTestInstance(dialect, {}, { now: () => clock });
  });
  afterAll(() => t.close());
  beforeEach(() => {
    // Each test on a clock of its own, whole TOTP steps apart, so no code is reused across tests.
    clock = Math.floor(Date.now() / 30_000) * 30_000 + 15_000 + 30_000 * 200 * ++n;
  });

  const post = (url: string, token: string, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers: bearer(token), payload });

  async function signedIn() {
    const username = `reauth${n}`;
    await insertUser(t.db, username);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username, password: USER_PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.accessToken as string;
  }

  function expectReauthRequired(res: Awaited<ReturnType<typeof post>>) {
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toEqual({ code: 'REAUTH_REQUIRED', message: expect.stringMatching(/^此操作需要先验证身份/) });
  }

  it('an access token whose sign-in is older than ten minutes cannot start or confirm TOTP', async () => {
    const token = await signedIn();
    const setup = await post('/api/auth/totp/setup', token);
    expect(setup.statusCode, 'right after the sign-in the sign-in itself is the proof').toBe(200);
    const { secret } = setup.json().data;
    clock += 10 * MINUTE + 1_000;
    expectReauthRequired(await post('/api/auth/totp/setup', token));
    expectReauthRequired(await post('/api/auth/totp/enable', token, { code: totpCode(secret, clock) }));
    const state = await t.app.inject({ url: '/api/auth/me', headers: bearer(token) });
    expect(state.json().data.totpEnabled, 'nothing was enrolled').toBe(false);
  });

  it('the current password given again lets the owner enrol for the next ten minutes, and no longer', async () => {
    const token = await signedIn();
    clock += 30 * MINUTE;
    const wrong = await post('/api/auth/reauth', token, { password: 'not-the-password' });
    expect(wrong.statusCode, wrong.body).toBe(400);
    expect(wrong.json().message).toBe('参数 password 无效：密码不正确');
    expectReauthRequired(await post('/api/auth/totp/setup', token));

    const ok = await post('/api/auth/reauth', token, { password: USER_PASSWORD });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.until).toBe(new Date(clock + 10 * MINUTE).toISOString());
    clock += 9 * MINUTE;
    const setup = await post('/api/auth/totp/setup', token);
    expect(setup.statusCode, setup.body).toBe(200);
    clock += 2 * MINUTE;
    expectReauthRequired(
      await post('/api/auth/totp/enable', token, { code: totpCode(setup.json().data.secret, clock) }),
    );
    expect((await post('/api/auth/reauth', token, { password: USER_PASSWORD })).statusCode).toBe(200);
    const enable = await post('/api/auth/totp/enable', token, { code: totpCode(setup.json().data.secret, clock) });
    expect(enable.statusCode, enable.body).toBe(200);
    expect(enable.json().data.recoveryCodes).toHaveLength(10);
  });

  it('with TOTP on, a current code proves the owner; without it a code proves nothing', async () => {
    const token = await signedIn();
    const { secret } = (await post('/api/auth/totp/setup', token)).json().data;
    const codeless = await post('/api/auth/reauth', token, { code: totpCode(secret, clock) });
    expect(codeless.statusCode, 'a pending secret is not an enrolled factor').toBe(400);
    expect((await post('/api/auth/totp/enable', token, { code: totpCode(secret, clock) })).statusCode).toBe(200);
    clock += 60 * MINUTE;
    const byCode = await post('/api/auth/reauth', token, { code: totpCode(secret, clock) });
    expect(byCode.statusCode, byCode.body).toBe(200);
  });

  it('signing every other device out stays one click, with no proof asked', async () => {
    const token = await signedIn();
    clock += 60 * MINUTE;
    const res = await post('/api/auth/sessions/revoke-others', token);
    expect(res.statusCode, res.body).toBe(200);
  });

  it('another session’s proof does not count for this one', async () => {
    const stolen = await signedIn();
    clock += 30 * MINUTE;
    // The owner proves themself on their own device; the thief's token stays without a proof.
    const own = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: `reauth${n}`, password: USER_PASSWORD },
    });
    expect((await post('/api/auth/totp/setup', own.json().data.accessToken)).statusCode).toBe(200);
    expectReauthRequired(await post('/api/auth/totp/setup', stolen));
  });
});
