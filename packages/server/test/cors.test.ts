import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb, getTestInstance, type TestInstance } from './helpers.js';

// http/cors.ts: the header sets are fixed at start-up; these are the rules they must keep.
describeEachDb('CORS rules', (dialect) => {
  const GOOD = 'https://admin.example.com';
  let t: TestInstance;

  beforeAll(async () => {
    t = await getTestInstance(dialect, { CORS_ORIGINS: GOOD });
  });
  afterAll(() => t?.close());

  const preflight = (url: string, method: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'OPTIONS',
      url,
      headers: { origin: GOOD, 'access-control-request-method': method, ...headers },
    });

  it('lets a configured origin send every admin method, and reflects the requested headers', async () => {
    const pre = await preflight('/api/users/1', 'DELETE', { 'access-control-request-headers': 'authorization' });
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(GOOD);
    for (const m of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])
      expect(String(pre.headers['access-control-allow-methods'])).toContain(m);
    expect(pre.headers['access-control-allow-headers']).toBe('authorization');
    expect(String(pre.headers.vary)).toMatch(/Origin/);
    expect(String(pre.headers.vary)).toMatch(/Access-Control-Request-Headers/);
    expect(pre.headers['content-length']).toBe('0');
  });

  it('answers a public preflight for GET only, with no origin restriction', async () => {
    const pre = await preflight('/api/hitokoto', 'GET');
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('*');
    expect(pre.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
  });

  it('rejects a preflight without Access-Control-Request-Method as @fastify/cors strict mode does, in the envelope', async () => {
    const res = await t.app.inject({ method: 'OPTIONS', url: '/api/hitokoto', headers: { origin: GOOD } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 400, data: null, msg: expect.stringContaining('CORS 预检') });
  });

  it('lets browsers read the rate-limit and caching headers of public answers', async () => {
    const res = await t.app.inject({ url: '/healthz', headers: { origin: GOOD } });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(String(res.headers['access-control-expose-headers'])).toMatch(/ETag/);
    expect(String(res.headers['access-control-expose-headers'])).toMatch(/Retry-After/);
  });
});
