import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, bearer, capturedLog, describeEachDb, getTestInstance, type TestInstance } from './helpers.js';
import { USER_PASSWORD, insertUser, signIn } from './auth-fixtures.js';
import { PASSWORD_CHECKS_PER_MINUTE } from '../src/admin/auth/password-check.js';

/** Passwords across the policy's range: too short, common, keyboard walks, Chinese pinyin, long phrases. */
const PASSWORDS = [
  'abc',
  '1234567',
  '12345678',
  'password',
  'password1',
  'qwertyuiop',
  'iloveyou520',
  'woaini1314',
  'zhangwei1988',
  'Tianji2026!',
  'admin-password-123',
  'asdfghjkl;',
  'P@ssw0rd',
  'correct horse battery staple',
  'mX7#vq9!Lw2$',
  '小明的密码很长很长很长',
  'aaaaaaaaaaaa',
  'Summer2024',
  'red-kite-lantern-49',
  'qazwsxedc123',
];

describeEachDb('POST /api/auth/password-check', (dialect) => {
  let t: TestInstance;
  const log = capturedLog();
  const check = (token: string | undefined, password: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/password-check',
      headers: token ? bearer(token) : {},
      payload: { password },
    });

  beforeAll(async () => {
    // Every request line too (LOG_REQUESTS), at the most talkative level.
    t = await getTestInstance(dialect, { LOG_REQUESTS: 'true' }, { logger: { level: 'trace', stream: log.stream } });
  });
  afterAll(() => t.close());

  it('answers 401 without a session, and no-store', async () => {
    const res = await check(undefined, 'whatever-123');
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('UNAUTHORIZED');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers a session that must change its password first (the must-change flow shows the meter)', async () => {
    const id = await insertUser(t.db, 'pwcheck_must');
    await t.db.kysely.updateTable('users').set({ must_change_password: 1 }).where('id', '=', id).execute();
    const s = await signIn(t.app, 'pwcheck_must');
    const res = await check(s.accessToken, 'mX7#vq9!Lw2$');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json().data).toEqual({ score: 4, ok: true, problem: '' });
  });

  it('says of each password what the password change then does: refused with the same reason, or accepted', async () => {
    await insertUser(t.db, 'pwcheck_agree');
    let current = USER_PASSWORD;
    let s = await signIn(t.app, 'pwcheck_agree');
    const verdicts: string[] = [];
    for (const password of PASSWORDS) {
      const res = await check(s.accessToken, password);
      expect(res.statusCode, res.body).toBe(200);
      const { score, ok, problem } = res.json().data as { score: number; ok: boolean; problem: string };
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(4);
      expect(ok).toBe(problem === '');
      const change = await t.app.inject({
        method: 'PUT',
        url: '/api/auth/password',
        headers: bearer(s.accessToken),
        payload: { oldPassword: current, newPassword: password },
      });
      if (ok) {
        expect(change.statusCode, `${password}: ${change.body}`).toBe(200);
        current = password;
        s = change.json().data;
      } else {
        expect(change.statusCode, password).toBe(400);
        expect(change.json().message).toBe(`参数 newPassword 无效：${problem}`);
      }
      verdicts.push(ok ? 'ok' : 'refused');
    }
    // The list spans both answers, so the agreement is tested both ways.
    expect(verdicts).toContain('ok');
    expect(verdicts).toContain('refused');
  });

  it('refuses a check past the per-user limit with 429 and Retry-After', async () => {
    await insertUser(t.db, 'pwcheck_limit');
    const s = await signIn(t.app, 'pwcheck_limit');
    for (let i = 0; i < PASSWORD_CHECKS_PER_MINUTE; i++)
      expect((await check(s.accessToken, 'abc')).statusCode).toBe(200);
    const over = await check(s.accessToken, 'abc');
    expect(over.statusCode).toBe(429);
    expect(over.json().code).toBe('TOO_MANY_REQUESTS');
    expect(over.headers['retry-after']).toBeDefined();
    // Another user is counted on its own.
    await insertUser(t.db, 'pwcheck_other');
    expect((await check((await signIn(t.app, 'pwcheck_other')).accessToken, 'abc')).statusCode).toBe(200);
  });

  it('never writes a checked password to the log, nor repeats one in an error', async () => {
    const tooLong = `${'secret-'.repeat(20)}xyz`;
    await insertUser(t.db, 'pwcheck_long');
    const res = await check((await signIn(t.app, 'pwcheck_long')).accessToken, tooLong);
    expect(res.statusCode).toBe(400);
    expect(res.body).not.toContain('secret-secret');
    const text = log.lines.map((l) => JSON.stringify(l)).join('\n');
    // The requests were logged (their URLs, which contain "password" itself: that word is no finding).
    expect(text).toContain('/api/auth/password-check');
    const distinctive = [...PASSWORDS, tooLong].filter((p) => p.length >= 6 && p !== 'password');
    for (const p of distinctive) expect(text, p).not.toContain(JSON.stringify(p).slice(1, -1));
  });
});

describe.skipIf(!REDIS_URL)('POST /api/auth/password-check across instances (Redis)', () => {
  it('counts one user’s checks once for every instance sharing Redis', async () => {
    const env = { REDIS_URL: REDIS_URL! };
    const a = await getTestInstance('sqlite', env);
    const b = await getTestInstance('sqlite', env);
    try {
      // One user on both instances: the same database is not shared here, so the user is made on each with one id.
      const id = await insertUser(a.db, 'pwcheck_shared');
      const row = await a.db.kysely
        .selectFrom('users')
        .select(['id', 'username', 'nickname', 'password_hash', 'created_at', 'updated_at'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      await b.db.kysely
        .insertInto('users')
        .values({ ...row, username_key: 'pwcheck_shared', status: 'enabled', token_version: 0 })
        .execute();
      const on = async (t: TestInstance) => (await signIn(t.app, 'pwcheck_shared')).accessToken;
      const [ta, tb] = [await on(a), await on(b)];
      const check = (t: TestInstance, token: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/password-check',
          headers: bearer(token),
          payload: { password: 'abc' },
        });
      const half = PASSWORD_CHECKS_PER_MINUTE / 2;
      for (let i = 0; i < half; i++) expect((await check(a, ta)).statusCode).toBe(200);
      for (let i = 0; i < half; i++) expect((await check(b, tb)).statusCode).toBe(200);
      expect((await check(a, ta)).statusCode).toBe(429);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
