import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { deviceLabel } from '../src/admin/sessions/device.js';
import { bearer, describeEachDb, getTestInstance, type TestInstance } from './helpers.js';
import { USER_PASSWORD, ageSignIns, insertUser, signIn } from './auth-fixtures.js';

/**
 * Sign-in on a device without a browser (RFC 8628 device authorization grant, issue 53): a code, an approval by a
 * signed-in person, a session for the device exactly once — and what an attacker tries (someone else approving a
 * code asked for another account, a code used twice, guessing codes, flooding code requests, a burst of polls).
 */
describeEachDb('device sign-in', (dialect) => {
  let t: TestInstance;
  let shift = 0;
  let n = 0;
  const CODE = /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/;
  const DEVICE_UA = 'tianji-cli/0.1.0 node/20.19.0 (linux x64)';

  beforeAll(async () => {
    t = await getTestInstance(dialect, {}, { now: () => Date.now() + shift });
  });
  afterAll(() => t.close());
  afterEach(() => {
    shift = 0;
  });

  /** A device asks for a code from its own address (the per-address limit stays out of the other tests). */
  async function ask(payload: object = {}, address = `10.1.0.${++n}`) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/device/code',
      payload,
      remoteAddress: address,
      headers: { 'user-agent': DEVICE_UA, 'x-client-kind': 'cli' },
    });
    expect(res.statusCode, res.body).toBe(200);
    return { ...(res.json().data as { deviceCode: string; userCode: string; verificationUri: string }), address };
  }
  const poll = (deviceCode: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/device/token', payload: { deviceCode } });
  const lookup = (token: string, userCode: string) =>
    t.app.inject({ url: `/api/auth/device/requests/${encodeURIComponent(userCode)}`, headers: bearer(token) });
  const decide = (token: string, userCode: string, verdict: 'approve' | 'deny') =>
    t.app.inject({
      method: 'POST',
      url: `/api/auth/device/requests/${encodeURIComponent(userCode)}/${verdict}`,
      headers: bearer(token),
    });
  /** A new user, signed in (a fresh proof of identity). */
  async function user(prefix = 'dev') {
    const username = `${prefix}${++n}`;
    const id = await insertUser(t.db, username);
    return { username, id, ...(await signIn(t.app, username)) };
  }
  const expectPoll = (res: { statusCode: number; body: string; json(): { code: string } }, code: string) => {
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe(code);
  };

  it('code, pending, approval, then the session once: listed as 命令行, opened by device, logged as 浏览器授权', async () => {
    const u = await user();
    const start = await t.app.inject({
      method: 'POST',
      url: '/api/auth/device/code',
      payload: { clientName: '构建服务器' },
      remoteAddress: '10.1.1.1',
      headers: { 'user-agent': DEVICE_UA, 'x-client-kind': 'cli' },
    });
    expect(start.statusCode, start.body).toBe(200);
    const code = start.json().data;
    expect(code.userCode).toMatch(CODE);
    expect(code.deviceCode).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // inject's Host (localhost:80) is a trusted host: an absolute link to it.
    expect(code.verificationUri).toBe('http://localhost:80/device');
    expect(code.verificationUriComplete).toBe(`http://localhost:80/device?code=${code.userCode}`);
    expect(code).toMatchObject({ expiresIn: 600, interval: 5 });
    const stored = await t.db.kysely.selectFrom('device_authorizations').selectAll().execute();
    expect(stored.map((r) => r.device_code_hash)).not.toContain(code.deviceCode);

    expectPoll(await poll(code.deviceCode), 'AUTHORIZATION_PENDING');
    // Typed the way people type it: lower case, no dash, spaces.
    const seen = await lookup(u.accessToken, ` ${code.userCode.replace('-', ' ').toLowerCase()} `);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json().data).toMatchObject({
      userCode: code.userCode,
      clientName: '构建服务器',
      deviceLabel: deviceLabel(DEVICE_UA),
      ip: '10.1.1.1',
      location: { zh: '内网地址' },
      username: null,
    });

    const approved = await decide(u.accessToken, code.userCode, 'approve');
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toEqual({ data: { approved: true } });
    expect((await decide(u.accessToken, code.userCode, 'approve')).statusCode).toBe(409);
    expect((await lookup(u.accessToken, code.userCode)).statusCode).toBe(404);

    const got = await poll(code.deviceCode);
    expect(got.statusCode, got.body).toBe(200);
    const session = got.json().data;
    expect(session.user.username).toBe(u.username);
    expect(session.mustChangePassword).toBe(false);
    const second = await poll(code.deviceCode);
    expectPoll(second, 'EXPIRED_TOKEN');
    expect(second.json().message).toMatch(/^授权码已过期，请重新运行 tianji login --web/);

    const own = await t.app.inject({ url: '/api/auth/sessions', headers: bearer(session.accessToken) });
    const current = own.json().data.find((s: { current: boolean }) => s.current);
    expect(current).toMatchObject({ clientKind: 'cli', signInMethod: 'device', ip: '10.1.1.1', userAgent: DEVICE_UA });
    const row = await t.db.kysely
      .selectFrom('sessions')
      .select(['sign_in_method', 'amr'])
      .where('user_id', '=', u.id)
      .where('ip', '=', '10.1.1.1')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ sign_in_method: 'device', amr: 'pwd' });
    const logged = await t.db.kysely
      .selectFrom('login_logs')
      .select(['result', 'reason', 'ip', 'client_kind'])
      .where('user_id', '=', u.id)
      .where('reason', '=', 'DEVICE')
      .execute();
    expect(logged).toEqual([{ result: 'success', reason: 'DEVICE', ip: '10.1.1.1', client_kind: 'cli' }]);
    const audit = await t.db.kysely
      .selectFrom('audit_logs')
      .select(['action', 'detail'])
      .where('actor_id', '=', u.id)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0].action).toBe('auth.device-approve');
    expect(JSON.parse(audit[0].detail)).toMatchObject({ clientName: '构建服务器' });
    // The device's session works like any other: it refreshes.
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refreshToken: session.refreshToken },
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
  });

  it('polling sooner than the interval: SLOW_DOWN, and the interval grows by 5 s', async () => {
    const code = await ask();
    expectPoll(await poll(code.deviceCode), 'AUTHORIZATION_PENDING');
    const fast = await poll(code.deviceCode);
    expectPoll(fast, 'SLOW_DOWN');
    expect(fast.json().message).toMatch(/^请求过于频繁，请放慢轮询/);
    shift = 6_000; // the old 5 s interval has passed, the new 10 s one has not
    expectPoll(await poll(code.deviceCode), 'SLOW_DOWN');
    shift = 6_000 + 15_000;
    expectPoll(await poll(code.deviceCode), 'AUTHORIZATION_PENDING');
  });

  it('a refusal: the device hears ACCESS_DENIED, and the code cannot be approved afterwards', async () => {
    const u = await user();
    const code = await ask({ clientName: 'laptop' });
    const denied = await decide(u.accessToken, code.userCode, 'deny');
    expect(denied.statusCode, denied.body).toBe(204);
    const res = await poll(code.deviceCode);
    expectPoll(res, 'ACCESS_DENIED');
    expect(res.json().message).toMatch(/^登录请求已被拒绝/);
    expect((await decide(u.accessToken, code.userCode, 'approve')).statusCode).toBe(409);
    expectPoll(await poll(code.deviceCode), 'ACCESS_DENIED');
    const audit = await t.db.kysely.selectFrom('audit_logs').select('action').where('actor_id', '=', u.id).execute();
    expect(audit.map((a) => a.action)).toEqual(['auth.device-deny']);
  });

  it('after ten minutes the code is gone: EXPIRED_TOKEN for the device, 404 授权码不存在或已过期 for the approver', async () => {
    const u = await user();
    const code = await ask();
    shift = 601_000;
    const res = await poll(code.deviceCode);
    expectPoll(res, 'EXPIRED_TOKEN');
    const seen = await lookup(u.accessToken, code.userCode);
    expect(seen.statusCode).toBe(404);
    expect(seen.json()).toEqual({ code: 'NOT_FOUND', message: expect.stringMatching(/^授权码不存在或已过期/) });
    // (Approving would need a fresh proof by now: the clock moved past the sign-in's ten minutes too.)
    expect((await decide(u.accessToken, code.userCode, 'deny')).statusCode).toBe(404);
  });

  it('a code asked for one account cannot be approved by another (403), only by that account', async () => {
    const alice = await user('alice');
    const mallory = await user('mallory');
    const code = await ask({ username: alice.username.toUpperCase() });
    expect((await lookup(mallory.accessToken, code.userCode)).json().data.username).toBe(alice.username.toUpperCase());
    for (const verdict of ['approve', 'deny'] as const) {
      const refused = await decide(mallory.accessToken, code.userCode, verdict);
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json().code).toBe('FORBIDDEN');
      expect(refused.json().message).toContain(
        `此授权码是为用户「${alice.username.toUpperCase()}」申请的，只有该用户可以`,
      );
    }
    expectPoll(await poll(code.deviceCode), 'AUTHORIZATION_PENDING');
    expect((await decide(alice.accessToken, code.userCode, 'approve')).statusCode).toBe(200);
    const got = await poll(code.deviceCode);
    expect(got.statusCode, got.body).toBe(200);
    expect(got.json().data.user.username).toBe(alice.username);
  });

  it('approving needs a proof of identity from the last 10 minutes (403 REAUTH_REQUIRED); looking does not', async () => {
    const u = await user();
    await ageSignIns(t.db, u.id);
    const code = await ask();
    expect((await lookup(u.accessToken, code.userCode)).statusCode).toBe(200);
    const refused = await decide(u.accessToken, code.userCode, 'approve');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('REAUTH_REQUIRED');
    expectPoll(await poll(code.deviceCode), 'AUTHORIZATION_PENDING');
  });

  it('a password changed between approval and poll: no session (401), and the code is spent', async () => {
    const u = await user();
    const code = await ask();
    expect((await decide(u.accessToken, code.userCode, 'approve')).statusCode).toBe(200);
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/password',
      headers: bearer(u.accessToken),
      payload: { oldPassword: USER_PASSWORD, newPassword: 'a quite different passphrase 42' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const res = await poll(code.deviceCode);
    expect(res.statusCode, res.body).toBe(401);
    expect(res.json().message).toMatch(/^登录期间账号的安全设置发生了变化/);
    expectPoll(await poll(code.deviceCode), 'EXPIRED_TOKEN');
  });

  it('guessing user codes counts toward the sign-in throttle: 429 after five wrong ones, even for a right code', async () => {
    const u = await user();
    const code = await ask();
    for (const guess of ['BCDF-GHJK', 'bcdfghjb', 'AEIO-U123', 'ZZZZ-ZZZZ', 'XXXX-XXXX']) {
      const res = await lookup(u.accessToken, guess);
      expect(res.statusCode, guess).toBe(404);
    }
    const held = await lookup(u.accessToken, code.userCode);
    expect(held.statusCode, held.body).toBe(429);
    expect(Number(held.headers['retry-after'])).toBeGreaterThan(0);
    expect((await decide(u.accessToken, 'BCDF-GHJB', 'approve')).statusCode).toBe(429);
  });

  it('one address may ask for ten codes in ten minutes: the eleventh is 429 with Retry-After', async () => {
    const address = '10.2.0.1';
    for (let i = 0; i < 10; i++) await ask({}, address);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/device/code',
      payload: {},
      remoteAddress: address,
    });
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toMatch(/^此地址申请登录码过于频繁，请在 10 分钟后重试/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(590);
    await ask({}, '10.2.0.2');
    shift = 601_000;
    await ask({}, address);
  });

  it('a burst of polls of one approved code: exactly one session, every other poll EXPIRED_TOKEN, never a 500', async () => {
    const u = await user();
    for (let round = 0; round < 8; round++) {
      const code = await ask({}, `10.3.0.${round}`);
      expect((await decide(u.accessToken, code.userCode, 'approve')).statusCode).toBe(200);
      const answers = await Promise.all(Array.from({ length: 6 }, () => poll(code.deviceCode)));
      const statuses = answers.map((r) => r.statusCode).sort();
      expect(statuses, answers.map((r) => r.body).join('\n')).toEqual([200, 400, 400, 400, 400, 400]);
      for (const r of answers.filter((a) => a.statusCode === 400)) expect(r.json().code).toBe('EXPIRED_TOKEN');
    }
    const sessions = await t.db.kysely
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', u.id)
      .where('sign_in_method', '=', 'device')
      .execute();
    expect(sessions).toHaveLength(8);
  });

  it('an approval and a refusal at the same moment: one decides, the other is 409, never a 500', async () => {
    const u = await user();
    for (let round = 0; round < 6; round++) {
      const code = await ask({}, `10.4.0.${round}`);
      const [approved, denied] = await Promise.all([
        decide(u.accessToken, code.userCode, 'approve'),
        decide(u.accessToken, code.userCode, 'deny'),
      ]);
      const statuses = [approved.statusCode, denied.statusCode];
      expect(
        statuses.filter((s) => s === 409),
        `${approved.body} ${denied.body}`,
      ).toHaveLength(1);
      expect(statuses.some((s) => s === 200 || s === 204)).toBe(true);
      const res = await poll(code.deviceCode);
      if (approved.statusCode === 200) expect(res.statusCode, res.body).toBe(200);
      else expectPoll(res, 'ACCESS_DENIED');
    }
  });
});
