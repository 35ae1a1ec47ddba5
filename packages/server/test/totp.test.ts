import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { bearer, describeEachDb, getTestInstance, login, type TestInstance } from './helpers.js';
import { USER_PASSWORD, insertUser } from './auth-fixtures.js';
import { totpCode } from '../src/admin/auth/totp.js';
import { SECOND_STEP_MAX_FAILURES } from '../src/admin/auth/throttle.js';
import { runAdminCli } from '../src/cli/admin-commands.js';

describeEachDb('TOTP two-step sign-in', (dialect) => {
  let t: TestInstance;
  /** The server's clock, frozen in the middle of a 30-second step so codes at ±30 s and 90 s are exact. */
  let clock = 0;
  let n = 0;
  const signIn = (username: string, password = USER_PASSWORD) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });
  const loginTotp = (mfaToken: string, code: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login/totp', payload: { mfaToken, code } });
  const post = (url: string, token: string, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers: bearer(token), ...(payload && { payload }) });

  /** A fresh user with TOTP enabled: their secret and recovery codes. */
  async function enrolled() {
    const username = `totp${++n}`;
    const id = await insertUser(t.db, username);
    const s = (await signIn(username)).json().data;
    const setup = await post('/api/auth/totp/setup', s.accessToken);
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret } = setup.json().data;
    const enable = await post('/api/auth/totp/enable', s.accessToken, { code: totpCode(secret, clock) });
    expect(enable.statusCode, enable.body).toBe(200);
    return { username, id, secret, recoveryCodes: enable.json().data.recoveryCodes as string[] };
  }
  /** Moves the clock on by whole steps, so the previous code's step is past. */
  const nextStep = () => (clock += 30_000 * 5);

  beforeAll(async () => {
    t = await getTestInstance(dialect, { LOGIN_MAX_FAILURES: '3' }, { now: () => clock });
  });
  afterAll(() => t.close());
  beforeEach(() => {
    clock = Math.floor(Date.now() / 30_000) * 30_000 + 15_000 + 30_000 * 100 * n;
  });

  it('setup gives a secret, an otpauth URI and a QR PNG; enable needs a current code and returns ten recovery codes', async () => {
    await insertUser(t.db, 'enrol1');
    const s = (await signIn('enrol1')).json().data;
    const setup = (await post('/api/auth/totp/setup', s.accessToken)).json().data;
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.otpauthUri).toMatch(/^otpauth:\/\/totp\/.*enrol1\?.*secret=/);
    expect(setup.qrDataUrl).toMatch(/^data:image\/png;base64,iVBOR/);
    const wrong = await post('/api/auth/totp/enable', s.accessToken, { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toContain('参数 code');
    const ok = await post('/api/auth/totp/enable', s.accessToken, { code: totpCode(setup.secret, clock) });
    const codes = ok.json().data.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const stored = await t.db.kysely.selectFrom('mfa_recovery_codes').select('code_hash').execute();
    expect(JSON.stringify(stored)).not.toContain(codes[0]);
    const me = await t.app.inject({ url: '/api/auth/me', headers: bearer(s.accessToken) });
    expect(me.json().data.totpEnabled).toBe(true);
  });

  it('a user without TOTP gets the usual login result', async () => {
    await insertUser(t.db, 'plain_user');
    const res = await signIn('plain_user');
    expect(Object.keys(res.json().data).sort()).toEqual(['accessToken', 'mustChangePassword', 'refreshToken', 'user']);
  });

  it('login asks for the code; a wrong code is 401 and logged, the right one completes the sign-in once', async () => {
    const u = await enrolled();
    nextStep();
    const first = await signIn(u.username);
    expect(first.json().data).toEqual({ mfaRequired: true, mfaToken: expect.any(String) });
    const { mfaToken } = first.json().data;
    // The mfaToken is not an access token.
    expect((await t.app.inject({ url: '/api/auth/me', headers: bearer(mfaToken) })).statusCode).toBe(401);
    const short = await loginTotp(mfaToken, '12345');
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toContain('参数 code');
    const badToken = await loginTotp(`${mfaToken}${'x'.repeat(4096)}`, '123456');
    expect(badToken.statusCode).toBe(400);
    expect(badToken.body).not.toContain(mfaToken.slice(0, 20));
    const wrong = await loginTotp(mfaToken, '123456');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).not.toContain('123456');
    const code = totpCode(u.secret, clock);
    const ok = await loginTotp(mfaToken, code);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ user: { username: u.username }, mustChangePassword: false });
    expect((await t.app.inject({ url: '/api/auth/me', headers: bearer(ok.json().data.accessToken) })).statusCode).toBe(
      200,
    );
    // The same code is not accepted twice.
    expect((await loginTotp(mfaToken, code)).statusCode).toBe(401);
    const log = await t.db.kysely
      .selectFrom('login_logs')
      .select(['result', 'reason'])
      .where('user_id', '=', u.id)
      .execute();
    expect(log.filter((r) => r.reason === 'WRONG_TOTP')).toHaveLength(2);
    // One success when enrolling (before TOTP), one with the code.
    expect(log.filter((r) => r.result === 'success')).toHaveLength(2);
  });

  it('accepts codes 30 s early or late and refuses one 90 s old', async () => {
    const u = await enrolled();
    nextStep();
    const token = async () => (await signIn(u.username)).json().data.mfaToken as string;
    expect((await loginTotp(await token(), totpCode(u.secret, clock - 90_000))).statusCode).toBe(401);
    expect((await loginTotp(await token(), totpCode(u.secret, clock - 30_000))).statusCode).toBe(200);
    nextStep();
    expect((await loginTotp(await token(), totpCode(u.secret, clock + 30_000))).statusCode).toBe(200);
    nextStep();
    expect((await loginTotp(await token(), totpCode(u.secret, clock + 90_000))).statusCode).toBe(401);
  });

  it('a recovery code signs in once; used again it is refused', async () => {
    const u = await enrolled();
    const token = async () => (await signIn(u.username)).json().data.mfaToken as string;
    expect((await loginTotp(await token(), u.recoveryCodes[3].toUpperCase())).statusCode).toBe(200);
    expect((await loginTotp(await token(), u.recoveryCodes[3])).statusCode).toBe(401);
    expect((await loginTotp(await token(), u.recoveryCodes[4].replace('-', ''))).statusCode).toBe(200);
  });

  it('a recovery-code sign-in tells how many codes are left and is marked in the login log; a TOTP one is not', async () => {
    const u = await enrolled();
    nextStep();
    const token = async () => (await signIn(u.username)).json().data.mfaToken as string;
    const first = await loginTotp(await token(), u.recoveryCodes[0]);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data.recoveryCodesLeft).toBe(9);
    expect((await loginTotp(await token(), u.recoveryCodes[1])).json().data.recoveryCodesLeft).toBe(8);
    const withCode = await loginTotp(await token(), totpCode(u.secret, clock));
    expect(withCode.statusCode, withCode.body).toBe(200);
    expect(withCode.json().data).not.toHaveProperty('recoveryCodesLeft');
    const log = await t.db.kysely
      .selectFrom('login_logs')
      .select(['reason'])
      .where('user_id', '=', u.id)
      .where('result', '=', 'success')
      .execute();
    // Enrolling (password only) and the TOTP code: no mark; the two recovery codes: marked (the frozen clock gives
    // the rows one time, so they are compared as a set).
    expect(log.map((r) => r.reason).sort()).toEqual(['', '', 'RECOVERY_CODE', 'RECOVERY_CODE']);
  });

  it('the sign-in throttle counts wrong codes', async () => {
    const u = await enrolled();
    const mfaToken = (await signIn(u.username)).json().data.mfaToken;
    for (let i = 0; i < 3; i++) expect((await loginTotp(mfaToken, '000000')).statusCode).toBe(401);
    const throttled = await loginTotp(mfaToken, totpCode(u.secret, clock + 30_000));
    expect(throttled.statusCode).toBe(429);
  });

  it('wrong codes from many addresses lock the account’s second step, and a right password does not reset the count', async () => {
    const u = await enrolled();
    // 40 addresses, each within its own (account, address) allowance, each after a right password.
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const from = `198.51.100.${i + 1}`;
      const step1 = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: u.username, password: USER_PASSWORD },
        remoteAddress: from,
      });
      expect(step1.statusCode).toBe(200);
      const wrong = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login/totp',
        payload: { mfaToken: step1.json().data.mfaToken, code: '000000' },
        remoteAddress: from,
      });
      statuses.push(wrong.statusCode);
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(SECOND_STEP_MAX_FAILURES);
    expect(statuses.slice(SECOND_STEP_MAX_FAILURES).every((s) => s === 429)).toBe(true);
    // Locked even for the right code, from a fresh address…
    const fresh = { remoteAddress: '203.0.113.77' };
    const mfaToken = (
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: u.username, password: USER_PASSWORD },
        ...fresh,
      })
    ).json().data.mfaToken;
    const locked = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login/totp',
      payload: { mfaToken, code: totpCode(u.secret, clock) },
      ...fresh,
    });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toMatch(/^两步验证码错误次数过多/);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(14 * 60);
    const logged = await t.db.kysely
      .selectFrom('login_logs')
      .select('reason')
      .where('user_id', '=', u.id)
      .where('reason', '=', 'TOTP_LOCKED')
      .execute();
    expect(logged.length).toBeGreaterThan(0);
    // …until 15 minutes after the last wrong code; then the owner signs in and is told.
    clock += 15 * 60_000 + 1000;
    const owner = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login/totp',
      payload: { mfaToken: (await signIn(u.username)).json().data.mfaToken, code: totpCode(u.secret, clock) },
      ...fresh,
    });
    expect(owner.statusCode, owner.body).toBe(200);
    expect(owner.json().data.securityNotice).toMatch(
      /^自上次登录以来，你的账号有 \d+ 次两步验证码输入错误，两步验证曾被暂时锁定/,
    );
    // Told once: the next sign-in carries no notice.
    nextStep();
    const again = await loginTotp((await signIn(u.username)).json().data.mfaToken, totpCode(u.secret, clock));
    expect(again.statusCode).toBe(200);
    expect(again.json().data.securityNotice).toBeUndefined();
  });

  it('enabling TOTP may sign out every other device of the account, and only when asked', async () => {
    const username = `totp${++n}`;
    await insertUser(t.db, username);
    const laptop = (await signIn(username)).json().data;
    const phone = (await signIn(username)).json().data;
    const tablet = (await signIn(username)).json().data;
    const { secret } = (await post('/api/auth/totp/setup', laptop.accessToken)).json().data;
    const enable = await post('/api/auth/totp/enable', laptop.accessToken, {
      code: totpCode(secret, clock),
      signOutOthers: true,
    });
    expect(enable.statusCode, enable.body).toBe(200);
    expect(enable.json().data.signedOut).toBe(2);
    const me = (token: string) => t.app.inject({ url: '/api/auth/me', headers: bearer(token) });
    expect((await me(laptop.accessToken)).statusCode).toBe(200);
    expect((await me(phone.accessToken)).statusCode).toBe(401);
    expect((await me(tablet.accessToken)).statusCode).toBe(401);
    // Without the flag nothing else ends.
    const other = `totp${++n}`;
    await insertUser(t.db, other);
    const a = (await signIn(other)).json().data;
    const b = (await signIn(other)).json().data;
    const s2 = (await post('/api/auth/totp/setup', a.accessToken)).json().data;
    const plain = await post('/api/auth/totp/enable', a.accessToken, { code: totpCode(s2.secret, clock) });
    expect(plain.json().data.signedOut).toBe(0);
    expect((await me(b.accessToken)).statusCode).toBe(200);
  });

  it('an mfaToken completes one sign-in only', async () => {
    const u = await enrolled();
    const mfaToken = (await signIn(u.username)).json().data.mfaToken;
    expect((await loginTotp(mfaToken, u.recoveryCodes[0])).statusCode).toBe(200);
    const second = await loginTotp(mfaToken, u.recoveryCodes[1]);
    expect(second.statusCode).toBe(401);
    expect(second.json().message).toMatch(/mfaToken/);
    // The recovery code the refused attempt presented is spent only if a session came of it: here none did…
    const next = await loginTotp((await signIn(u.username)).json().data.mfaToken, u.recoveryCodes[2]);
    expect(next.statusCode).toBe(200);
  });

  it('disable needs the password or a code; reset-mfa turns it off for a locked-out user', async () => {
    const u = await enrolled();
    const s = (await loginTotp((await signIn(u.username)).json().data.mfaToken, u.recoveryCodes[0])).json().data;
    expect((await post('/api/auth/totp/disable', s.accessToken, { password: 'not-my-password' })).statusCode).toBe(400);
    expect((await post('/api/auth/totp/disable', s.accessToken, { password: USER_PASSWORD })).statusCode).toBe(204);
    expect((await signIn(u.username)).json().data.accessToken).toEqual(expect.any(String));

    const v = await enrolled();
    expect((await signIn(v.username)).json().data.mfaRequired).toBe(true);
    const out: string[] = [];
    expect(await runAdminCli(['reset-mfa', v.username], t.db.kysely, { out: (l) => out.push(l), err: () => {} })).toBe(
      0,
    );
    expect(out.join('\n')).toContain('turned off');
    expect((await signIn(v.username)).json().data.accessToken).toEqual(expect.any(String));
  });

  it('recovery codes are replaced by ten new ones after the password: the old ones stop working', async () => {
    const u = await enrolled();
    const s = (await loginTotp((await signIn(u.username)).json().data.mfaToken, u.recoveryCodes[0])).json().data;
    const wrong = await post('/api/auth/totp/recovery-codes', s.accessToken, { password: 'not-my-password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('参数 password 无效：密码不正确');
    const res = await post('/api/auth/totp/recovery-codes', s.accessToken, { password: USER_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const fresh = res.json().data.recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((c) => u.recoveryCodes.includes(c))).toEqual([]);
    const token = async () => (await signIn(u.username)).json().data.mfaToken as string;
    expect((await loginTotp(await token(), u.recoveryCodes[1])).statusCode).toBe(401);
    expect((await loginTotp(await token(), fresh[0])).statusCode).toBe(200);
    const audited = await t.db.kysely
      .selectFrom('audit_logs')
      .select('action')
      .where('target_id', '=', u.id)
      .where('action', '=', 'auth.totp-recovery-codes')
      .execute();
    expect(audited).toHaveLength(1);
    // Without TOTP there is nothing to replace.
    await post('/api/auth/totp/disable', s.accessToken, { password: USER_PASSWORD });
    const off = await post('/api/auth/totp/recovery-codes', s.accessToken, { password: USER_PASSWORD });
    expect(off.statusCode).toBe(409);
  });

  it('a role that requires TOTP blocks its members until they enrol', async () => {
    const admin = (await login(t.app)).accessToken;
    const role = await post('/api/roles', admin, { code: 'totp_role', name: '需要两步验证', requireTotp: true });
    expect(role.statusCode, role.body).toBe(201);
    expect(role.json().data.requireTotp).toBe(true);
    const id = await insertUser(t.db, 'member1');
    await t.app.inject({
      method: 'PUT',
      url: `/api/users/${id}/roles`,
      headers: bearer(admin),
      payload: { roleIds: [role.json().data.id] },
    });
    const s = (await signIn('member1')).json().data;
    const blocked = await t.app.inject({ url: '/api/permissions', headers: bearer(s.accessToken) });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().code).toBe('TOTP_SETUP_REQUIRED');
    const me = (await t.app.inject({ url: '/api/auth/me', headers: bearer(s.accessToken) })).json().data;
    expect(me).toMatchObject({ totpRequired: true, totpEnabled: false });
    const { secret } = (await post('/api/auth/totp/setup', s.accessToken)).json().data;
    expect((await post('/api/auth/totp/enable', s.accessToken, { code: totpCode(secret, clock) })).statusCode).toBe(
      200,
    );
    expect((await t.app.inject({ url: '/api/permissions', headers: bearer(s.accessToken) })).statusCode).toBe(200);
  });
});
