import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ADMIN, describeEachDb, testConfig, useTestApp } from './helpers.js';
import { buildApp } from '../src/app.js';
import { FailureStore, LoginThrottle } from '../src/admin/auth/throttle.js';
import { runAdminCli } from '../src/cli/admin-commands.js';
import { USER_PASSWORD, decode, insertUser, signIn } from './auth-fixtures.js';

const LIMITS = { LOGIN_MAX_FAILURES: '3', LOGIN_MAX_FAILURES_PER_IP: '6' };

let ipSeq = 0;
/** A client address of its own per scenario, so the per-IP limit only counts what the scenario does. */
const newIp = () => `10.${(ipSeq >> 8) & 255}.${ipSeq++ & 255}.${1 + Math.floor(Math.random() * 250)}`;

const attempt = (app: FastifyInstance, username: string, password: string, remoteAddress = newIp()) =>
  app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password }, remoteAddress });

function expectThrottled(res: Awaited<ReturnType<typeof attempt>>) {
  expect(res.statusCode, res.body).toBe(429);
  expect(res.json()).toEqual({
    code: 'TOO_MANY_REQUESTS',
    message: expect.stringMatching(/请在 \d+ 分钟后重试.*try again/),
  });
  const retry = Number(res.headers['retry-after']);
  expect(Number.isInteger(retry) && retry >= 1 && retry <= 900).toBe(true);
}

describeEachDb('sign-in', (dialect) => {
  let n = 0;
  /** The throttle's clock runs this far ahead: tests step past a delay without sleeping. */
  let skew = 0;
  const freshUser = async (status?: 'disabled') => {
    const username = `login${++n}`;
    await insertUser(t.db, username, { status });
    return username;
  };

  const t = useTestApp(dialect, LIMITS, { now: () => Date.now() + skew });

  it('answers {data:{accessToken, refreshToken, user:{id, username, roles, permissions}}}', async () => {
    const res = await attempt(t.app, ADMIN.username, ADMIN.password);
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(Object.keys(res.json())).toEqual(['data']);
    // The contract's three fields, plus mustChangePassword (issue 10: false for an ADMIN_PASSWORD account).
    expect(Object.keys(data).sort()).toEqual(['accessToken', 'mustChangePassword', 'refreshToken', 'user']);
    expect(data.user).toMatchObject({ id: expect.any(String), username: ADMIN.username });
    expect(data.user.roles).toEqual([{ id: expect.any(String), code: 'super_admin', name: expect.any(String) }]);
    for (const token of [data.accessToken, data.refreshToken]) expect(token.split('.')).toHaveLength(3);
    expect(decode(data.accessToken).header.typ).not.toBe(decode(data.refreshToken).header.typ);
  });

  it('writes the super administrator’s mask as the exact digits 9223372036854775807 in the raw body', async () => {
    const res = await attempt(t.app, ADMIN.username, ADMIN.password);
    expect(res.body).toMatch(/"permissions":9223372036854775807[,}]/);
    expect(res.body).not.toMatch(/"permissions":(-1|"|9223372036854776000)/);
  });

  it('gives a user without roles the mask 0 and no roles', async () => {
    const res = await attempt(t.app, await freshUser(), USER_PASSWORD);
    expect(res.body).toContain('"permissions":0');
    expect(res.json().data.user.roles).toEqual([]);
  });

  it('answers unknown user, wrong password and disabled user identically', async () => {
    const known = await freshUser();
    const disabled = await freshUser('disabled');
    const answers = [
      await attempt(t.app, 'nobody-by-this-name', USER_PASSWORD),
      await attempt(t.app, known, 'wrong-password'),
      await attempt(t.app, disabled, USER_PASSWORD),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBe(401);
      expect(res.headers['content-type']).toBe(answers[0].headers['content-type']);
      expect(res.body).toBe(answers[0].body);
    }
    expect(answers[0].json()).toEqual({ code: 'UNAUTHORIZED', message: 'invalid username or password' });
  });

  it('rejects a body without a password with 400 naming the field', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'admin' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'VALIDATION_ERROR', message: expect.stringMatching(/password/) });
  });

  it('throttles an (account, address) pair after LOGIN_MAX_FAILURES failures, even for the right password', async () => {
    const victim = await freshUser();
    const attacker = newIp();
    for (let i = 0; i < 3; i++) expect((await attempt(t.app, victim, `guess-${i}`, attacker)).statusCode).toBe(401);
    expectThrottled(await attempt(t.app, victim, 'guess-4', attacker));
    expectThrottled(await attempt(t.app, victim, USER_PASSWORD, attacker));
    // Other accounts from that address, and this account from other addresses, are not affected.
    expect((await attempt(t.app, await freshUser(), USER_PASSWORD, attacker)).statusCode).toBe(200);
    expect((await attempt(t.app, victim, USER_PASSWORD, newIp())).statusCode).toBe(200);
  });

  it('fifty failures for admin from one address do not stop admin signing in from another', async () => {
    const attacker = newIp();
    const codes = [];
    for (let i = 0; i < 50; i++) codes.push((await attempt(t.app, ADMIN.username, `guess-${i}`, attacker)).statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(3);
    expect(codes.filter((c) => c === 429)).toHaveLength(47);
    expect((await attempt(t.app, ADMIN.username, ADMIN.password, newIp())).statusCode).toBe(200);
  });

  it('past the allowance each failure doubles the wait: 1, 2, 4 minutes after the last failure', async () => {
    const user = await freshUser();
    const ip = newIp();
    for (let i = 0; i < 3; i++) expect((await attempt(t.app, user, `guess-${i}`, ip)).statusCode).toBe(401);
    for (const minutes of [1, 2, 4]) {
      const held = await attempt(t.app, user, 'early', ip);
      expectThrottled(held);
      expect(Number(held.headers['retry-after'])).toBeGreaterThan((minutes - 1) * 60);
      expect(Number(held.headers['retry-after'])).toBeLessThanOrEqual(minutes * 60);
      expect(held.json().message).toMatch(new RegExp(`请在 ${minutes} 分钟后重试`));
      skew += minutes * 60_000 + 1000;
      expect((await attempt(t.app, user, `late-guess-${minutes}`, ip)).statusCode).toBe(401);
    }
  });

  it('throttles an unknown username the same way, so a 429 reveals nothing about existence', async () => {
    const ip = newIp();
    for (let i = 0; i < 3; i++) expect((await attempt(t.app, 'ghost-account', `guess-${i}`, ip)).statusCode).toBe(401);
    expectThrottled(await attempt(t.app, 'ghost-account', 'guess-4', ip));
  });

  it('starts an (account, address) pair afresh after a successful sign-in', async () => {
    const user = await freshUser();
    const ip = newIp();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 2; i++) expect((await attempt(t.app, user, 'wrong', ip)).statusCode).toBe(401);
      expect((await attempt(t.app, user, USER_PASSWORD, ip)).statusCode).toBe(200);
    }
  });

  it('throttles an address after LOGIN_MAX_FAILURES_PER_IP failures across accounts', async () => {
    const ip = newIp();
    for (let i = 0; i < 6; i++) expect((await attempt(t.app, `spray-${i}`, 'password1', ip)).statusCode).toBe(401);
    const user = await freshUser();
    expectThrottled(await attempt(t.app, user, USER_PASSWORD, ip));
    expect((await attempt(t.app, user, USER_PASSWORD, newIp())).statusCode).toBe(200);
  });

  it('does not count successful sign-ins against the address', async () => {
    const ip = newIp();
    const user = await freshUser();
    for (let i = 0; i < 8; i++) expect((await attempt(t.app, user, USER_PASSWORD, ip)).statusCode).toBe(200);
  });

  it('lets exactly LOGIN_MAX_FAILURES guesses of a concurrent burst reach the password check', async () => {
    const victim = await freshUser();
    const ip = newIp();
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => attempt(t.app, victim, `burst-${i}`, ip)));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([...Array(3).fill(401), ...Array(9).fill(429)]);
  });

  it('counts wrong old passwords of a password change toward the same limit', async () => {
    const user = await freshUser();
    const { accessToken } = await signIn(t.app, user);
    const change = (oldPassword: string) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/auth/password',
        headers: { authorization: `Bearer ${accessToken}` },
        payload: { oldPassword, newPassword: 'another-password-1' },
      });
    for (let i = 0; i < 3; i++) expect((await change(`guess-${i}`)).statusCode).toBe(400);
    expectThrottled(await change(USER_PASSWORD));
  });

  it('npm run admin -- unlock and reset-password clear the counters of the account from every address', async () => {
    const user = await freshUser();
    const lock = async (ips: string[]) => {
      for (const ip of ips) for (let i = 0; i < 3; i++) await attempt(t.app, user, `guess-${i}`, ip);
      for (const ip of ips) expectThrottled(await attempt(t.app, user, USER_PASSWORD, ip));
      return ips;
    };
    const io = { out: () => undefined, err: () => undefined };
    const first = await lock([newIp(), newIp()]);
    expect(await runAdminCli(['unlock', user], t.db.kysely, io)).toBe(0);
    for (const ip of first) expect((await attempt(t.app, user, USER_PASSWORD, ip)).statusCode).toBe(200);
    const [again] = await lock([newIp()]);
    expect(await runAdminCli(['reset-password', user, '--password', 'reset-password-1'], t.db.kysely, io)).toBe(0);
    expect((await attempt(t.app, user, 'reset-password-1', again)).statusCode).toBe(200);
  });

  it('counts on one instance toward the limit on another sharing the database', async () => {
    const other = await buildApp({ config: testConfig(LIMITS), db: t.db, logger: false });
    try {
      const user = await freshUser();
      const ip = newIp();
      for (let i = 0; i < 3; i++)
        expect((await attempt(i % 2 ? other : t.app, user, `guess-${i}`, ip)).statusCode).toBe(401);
      expectThrottled(await attempt(other, user, USER_PASSWORD, ip));
    } finally {
      await other.close();
    }
  });

  it('failures for an account from many addresses only slow its sign-ins down, never refuse them', async () => {
    const waits: number[] = [];
    const throttle = new LoginThrottle(
      new FailureStore(t.db.kysely),
      { perAccountIp: 3, perIp: 100, accountSlowdownAfter: 4 },
      { sleep: async (ms) => void waits.push(ms) },
    );
    const user = `slow-${randomBytes(3).toString('hex')}`;
    const wrong = new Error('wrong password');
    for (let i = 0; i < 4; i++)
      await expect(
        throttle.guard(
          user,
          newIp(),
          () => Promise.reject(wrong),
          (e) => e === wrong,
        ),
      ).rejects.toBe(wrong);
    expect(waits).toEqual([]);
    await expect(
      throttle.guard(
        user,
        newIp(),
        async () => 'signed in',
        () => false,
      ),
    ).resolves.toBe('signed in');
    expect(waits).toEqual([2000]);
  });
});
