import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ADMIN, REDIS_URL, describeEachDb, getTestInstance, type TestInstance } from './helpers.js';
import type { Dialect } from '../src/db/index.js';
import { USER_PASSWORD, decode, insertUser, signIn } from './auth-fixtures.js';

const LIMITS = { LOGIN_MAX_FAILURES: '3', LOGIN_MAX_FAILURES_PER_IP: '6' };

let ipSeq = 0;
/** A client address of its own per scenario, so the per-IP limit only counts what the scenario does. */
const newIp = () => `10.${(ipSeq >> 8) & 255}.${ipSeq++ & 255}.${1 + Math.floor(Math.random() * 250)}`;

const attempt = (app: FastifyInstance, username: string, password: string, remoteAddress = newIp()) =>
  app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password }, remoteAddress });

function expectThrottled(res: Awaited<ReturnType<typeof attempt>>) {
  expect(res.statusCode, res.body).toBe(429);
  expect(res.json()).toEqual({ code: 'TOO_MANY_REQUESTS', message: expect.stringMatching(/try again/) });
  const retry = Number(res.headers['retry-after']);
  expect(Number.isInteger(retry) && retry >= 1 && retry <= 900).toBe(true);
}

describeEachDb('sign-in', (dialect) => {
  let t: TestInstance;
  let n = 0;
  const freshUser = async (status?: 'disabled') => {
    const username = `login${++n}`;
    await insertUser(t.db, username, { status });
    return username;
  };

  beforeAll(async () => {
    t = await getTestInstance(dialect, LIMITS);
  });
  afterAll(() => t.close());

  it('answers {data:{accessToken, refreshToken, user:{id, username, roles, permissions}}}', async () => {
    const res = await attempt(t.app, ADMIN.username, ADMIN.password);
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(Object.keys(res.json())).toEqual(['data']);
    expect(Object.keys(data).sort()).toEqual(['accessToken', 'refreshToken', 'user']);
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
    const answers = [await attempt(t.app, 'nobody-by-this-name', USER_PASSWORD), await attempt(t.app, known, 'wrong-password'), await attempt(t.app, disabled, USER_PASSWORD)];
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

  it('throttles an account after LOGIN_MAX_FAILURES failures from any address, even for the right password', async () => {
    const victim = await freshUser();
    for (let i = 0; i < 3; i++) expect((await attempt(t.app, victim, `guess-${i}`)).statusCode).toBe(401);
    expectThrottled(await attempt(t.app, victim, 'guess-4'));
    expectThrottled(await attempt(t.app, victim, USER_PASSWORD));
    // Other accounts are not affected.
    expect((await attempt(t.app, await freshUser(), USER_PASSWORD)).statusCode).toBe(200);
  });

  it('throttles an unknown username the same way, so a 429 reveals nothing about existence', async () => {
    for (let i = 0; i < 3; i++) expect((await attempt(t.app, 'ghost-account', `guess-${i}`)).statusCode).toBe(401);
    expectThrottled(await attempt(t.app, 'ghost-account', 'guess-4'));
  });

  it('starts an account afresh after a successful sign-in', async () => {
    const user = await freshUser();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 2; i++) expect((await attempt(t.app, user, 'wrong')).statusCode).toBe(401);
      expect((await attempt(t.app, user, USER_PASSWORD)).statusCode).toBe(200);
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
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => attempt(t.app, victim, `burst-${i}`)));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([...Array(3).fill(401), ...Array(9).fill(429)]);
  });

  it('counts wrong old passwords of a password change toward the same limit', async () => {
    const user = await freshUser();
    const { accessToken } = await signIn(t.app, user);
    const change = (oldPassword: string) =>
      t.app.inject({ method: 'PUT', url: '/api/auth/password', headers: { authorization: `Bearer ${accessToken}` }, payload: { oldPassword, newPassword: 'another-password-1' } });
    for (let i = 0; i < 3; i++) expect((await change(`guess-${i}`)).statusCode).toBe(400);
    expectThrottled(await change(USER_PASSWORD));
  });
});

// Only with a Redis server (TEST_REDIS_URL); .ci/run provides one.
(REDIS_URL ? describeEachDb : describe.skip)('sign-in throttle shared through Redis', (dialect) => {
  let a: TestInstance;
  let b: TestInstance;
  // Names and addresses of this run only: the counts live in a Redis server other suites and runs share.
  const run = randomBytes(4).toString('hex');
  let seq = 0;
  const runIp = () => `fd00::${run.slice(0, 4)}:${run.slice(4)}:${++seq}`;

  beforeAll(async () => {
    const env = { ...LIMITS, REDIS_URL: REDIS_URL! };
    [a, b] = await Promise.all([getTestInstance(dialect as Dialect, env), getTestInstance(dialect as Dialect, env)]);
    await Promise.all([insertUser(a.db, `shared-${run}`), insertUser(b.db, `shared-${run}`)]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('counts an account’s failures on one instance toward the limit on another', async () => {
    for (let i = 0; i < 3; i++) expect((await attempt(a.app, `shared-${run}`, `guess-${i}`, runIp())).statusCode).toBe(401);
    expectThrottled(await attempt(b.app, `shared-${run}`, USER_PASSWORD, runIp()));
  });

  it('counts an address across instances and lets only the limit through a concurrent burst', async () => {
    const ip = runIp();
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => attempt(i % 2 ? a.app : b.app, `spray-${run}-${i}`, 'password1', ip)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([...Array(6).fill(401), ...Array(4).fill(429)]);
  });
});
