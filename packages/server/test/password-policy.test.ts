import { createRequire } from 'node:module';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bearer, describeEachDb, getTestInstance, login, type TestInstance } from './helpers.js';
import { USER_PASSWORD, insertUser, signIn } from './auth-fixtures.js';

describeEachDb('password policy for new admin passwords', (dialect) => {
  let t: TestInstance;
  let adminToken: string;
  const call = (method: 'POST' | 'PUT', url: string, payload: unknown, token = adminToken) =>
    t.app.inject({ method, url, payload: payload as object, headers: bearer(token) });

  beforeAll(async () => {
    t = await getTestInstance(dialect);
    adminToken = (await login(t.app)).accessToken;
  });
  afterAll(() => t.close());

  /** 400 naming the field, with the engine's Chinese advice, and never the password itself. */
  const expectRefused = (res: { statusCode: number; body: string }, field: string, password: string, what: RegExp) => {
    expect(res.statusCode, res.body).toBe(400);
    const body = JSON.parse(res.body);
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.message).toContain(`参数 ${field} 无效`);
    expect(body.message).toMatch(what);
    expect(res.body).not.toContain(password);
  };

  it('creating a user with a short or common password is refused without echoing it', async () => {
    expectRefused(
      await call('POST', '/api/users', { username: 'weak1', password: '123' }),
      'password',
      '123',
      /至少为 8/,
    );
    expectRefused(
      await call('POST', '/api/users', { username: 'weak1', password: 'woaini1314' }),
      'password',
      'woaini1314',
      /强度不足（评分 [0-2]，至少需要 3.*频繁使用的密码/,
    );
    const ok = await call('POST', '/api/users', { username: 'strong1', password: 'lantern-orbit-harvest-42' });
    expect(ok.statusCode, ok.body).toBe(201);
    // The event loop scored over views of the trie compiled in a thread of its own, not over word lists it loaded
    // (zxcvbn's ranked dictionaries would then be objects with every word as a key).
    const { zxcvbnOptions } = createRequire(import.meta.url)('@zxcvbn-ts/core') as {
      zxcvbnOptions: { rankedDictionaries: Record<string, object> };
    };
    const ranked = Object.values(zxcvbnOptions.rankedDictionaries);
    expect(ranked.length).toBe(7);
    for (const dictionary of ranked) expect(Object.keys(dictionary)).toEqual([]);
  });

  it('an operator reset and a change of one’s own password follow the same policy', async () => {
    const id = await insertUser(t.db, 'policy_user');
    expectRefused(
      await call('POST', `/api/users/${id}/reset-password`, { password: 'password1' }),
      'password',
      'password1',
      /强度不足/,
    );
    const own = await signIn(t.app, 'policy_user');
    expectRefused(
      await call('PUT', '/api/auth/password', { oldPassword: USER_PASSWORD, newPassword: 'qwerty12' }, own.accessToken),
      'newPassword',
      'qwerty12',
      /强度不足/,
    );
    const changed = await call(
      'PUT',
      '/api/auth/password',
      { oldPassword: USER_PASSWORD, newPassword: 'violet-canyon-drift-77' },
      own.accessToken,
    );
    expect(changed.statusCode, changed.body).toBe(200);
  });

  it('PASSWORD_MIN_LENGTH and PASSWORD_MIN_SCORE are settings', async () => {
    const lax = await getTestInstance(dialect, { PASSWORD_MIN_LENGTH: '4', PASSWORD_MIN_SCORE: '0' });
    try {
      const token = (await login(lax.app)).accessToken;
      const res = await lax.app.inject({
        method: 'POST',
        url: '/api/users',
        headers: bearer(token),
        payload: { username: 'lax1', password: '1234' },
      });
      expect(res.statusCode, res.body).toBe(201);
      const short = await lax.app.inject({
        method: 'POST',
        url: '/api/users',
        headers: bearer(token),
        payload: { username: 'lax2', password: '123' },
      });
      expect(short.json().message).toContain('至少为 4');
    } finally {
      await lax.close();
    }
  });
});
