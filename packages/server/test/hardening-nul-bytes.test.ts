import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findNul } from '../src/shared/nul-bytes.js';
import { areaOfUrl } from '../src/http/areas.js';
import { describeEachDb, getTestInstance, login, type TestInstance } from './helpers.js';

it('findNul names the first string holding U+0000 by its path, keys included', () => {
  expect(findNul({ a: 'ok', b: [{ c: 'x\0' }] })).toBe('b.0.c');
  expect(findNul({ 'k\0': 1 })).toBe('k\0');
  expect(findNul('\0', 'body')).toBe('body');
  expect(findNul({ a: 'ok', n: 1, z: null })).toBeUndefined();
  expect(findNul({ a: [['x'], 'y\0'], b: 'z\0' })).toBe('a.1');
});

it('findNul walks any depth without recursion and refuses past its limit', () => {
  let deep: unknown = 'leaf\0';
  for (let i = 0; i < 100_000; i++) deep = [deep];
  expect(() => findNul(deep, 'body')).toThrow(/参数 body 无效：嵌套不能超过 32 层/);
  let ok: unknown = 'leaf\0';
  for (let i = 0; i < 32; i++) ok = { k: ok };
  expect(findNul(ok)).toBe(Array(32).fill('k').join('.'));
});

describeEachDb('NUL bytes in admin input', (dialect) => {
  let t: TestInstance;
  let token: string;
  const routes: Array<{ method: string; url: string }> = [];
  beforeAll(async () => {
    t = await getTestInstance(
      dialect,
      {},
      {
        onRoute: (r: RouteOptions) => {
          if (areaOfUrl(r.url) !== 'admin') return;
          for (const method of [r.method].flat())
            if (method !== 'HEAD' && method !== 'OPTIONS') routes.push({ method, url: r.url });
        },
      },
    );
    token = (await login(t.app)).accessToken;
  });
  afterAll(() => t?.close());

  it.each([['username'], ['password']])('sign-in with a NUL in %s is a 400 naming it, not a 500', async (field) => {
    const payload = { username: 'admin', password: 'whatever-password', [field]: 'ad\u0000min' };
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'VALIDATION_ERROR', message: expect.stringContaining(`参数 ${field} 无效`) });
    expect(res.json().message).toContain('NUL');
  });

  it('every admin route answers a NUL in its body, query or path with a 400 naming the field', async () => {
    expect(routes.length).toBeGreaterThan(30);
    const failures: string[] = [];
    for (const { method, url } of routes) {
      const params: string[] = url.match(/:\w+/g) ?? [];
      const path = url.replace(/:\w+/g, 'a%00b');
      const probes =
        params.length > 0
          ? [{ url: path, field: params[0].slice(1) }]
          : method === 'GET' || method === 'DELETE'
            ? [{ url: `${path}?probe=a%00b`, field: 'probe' }]
            : [{ url: path, payload: { nested: [{ probe: 'a\u0000b' }] }, field: 'nested.0.probe' }];
      for (const p of probes) {
        const res = await t.app.inject({
          method: method as 'GET',
          url: p.url,
          headers: { authorization: `Bearer ${token}` },
          ...('payload' in p ? { payload: p.payload } : {}),
        });
        const body = res.json() as { code?: string; message?: string };
        if (
          res.statusCode !== 400 ||
          !body.message?.includes(`参数 ${p.field} 无效`) ||
          !body.message.includes('NUL')
        ) {
          failures.push(`${method} ${p.url} → ${res.statusCode} ${res.body.slice(0, 120)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('deeply nested JSON (5,000 levels, about 10 KB) is a 400 before sign-in, not a stack overflow', async () => {
    const depth = 5000;
    const bodies = {
      arrays: `{"username":${'['.repeat(depth)}${']'.repeat(depth)},"password":"x"}`,
      objects: `{"username":"admin","password":"x","a":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`,
    };
    for (const [kind, payload] of Object.entries(bodies)) {
      expect(payload.length, kind).toBeLessThan(32 * 1024);
      for (const url of ['/api/auth/login', '/api/users']) {
        const res = await t.app.inject({
          method: 'POST',
          url,
          headers: {
            'content-type': 'application/json',
            ...(url === '/api/users' && { authorization: `Bearer ${token}` }),
          },
          payload,
        });
        expect(res.statusCode, `${kind} ${url}: ${res.body}`).toBe(400);
        expect(res.json()).toEqual({
          code: 'VALIDATION_ERROR',
          message: expect.stringContaining('嵌套不能超过 32 层'),
        });
      }
    }
    // A content import's rows go through the same walk.
    const deepRow = `[{"content":${'['.repeat(depth)}${']'.repeat(depth)}}]`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/content/jokes/import',
      headers: { authorization: `Bearer ${token}` },
      payload: { format: 'json', content: deepRow },
    });
    expect(res.statusCode, res.body).toBe(400);
  });

  it('a content import whose rows hold a NUL (JSON escape) is refused per row, nothing imported', async () => {
    const content = JSON.stringify([{ content: 'fine joke' }, { content: 'bad\u0000joke' }]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/content/jokes/import',
      headers: { authorization: `Bearer ${token}` },
      payload: { format: 'json', content },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ row: 2, field: 'content', message: expect.stringContaining('NUL') }]);
  });
});
