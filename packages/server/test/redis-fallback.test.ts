import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, getTestInstance, login, type TestInstance } from './helpers.js';

/** A port where nothing listens: a Redis that is down. */
async function closedPort(): Promise<number> {
  const srv: Server = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise((r) => srv.close(r));
  return port;
}

describe('Redis down', () => {
  let t: TestInstance;
  beforeAll(async () => {
    t = await getTestInstance('sqlite', {
      REDIS_URL: `redis://127.0.0.1:${await closedPort()}`,
      RATE_LIMIT_MAX: '3',
      RATE_LIMIT_WINDOW: '60',
    });
  });
  afterAll(() => t.close());

  it('the service stays ready and says the rate limit is counted per instance', async () => {
    const res = await t.app.inject('/readyz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ready', redis: 'unavailable', rateLimit: 'per-instance' });
  });

  it('public requests are answered and still limited, counted in memory', async () => {
    const hit = () => t.app.inject({ url: '/api/random-color', remoteAddress: '192.0.2.77' });
    for (let i = 0; i < 3; i++) expect((await hit()).statusCode).toBe(200);
    const limited = await hit();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 429 });
  });

  it('an administrator can still sign in (the login throttle falls back too)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'admin', password: 'admin-password-123' },
    });
    expect(res.statusCode).toBe(200);
  });

  it('a caller with an API key is served and its quota counted in memory; a revocation still applies at once', async () => {
    const admin = bearer((await login(t.app)).accessToken);
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/admin/api-keys',
      headers: admin,
      payload: { name: 'redis-down', perMinute: 2 },
    });
    const { key, secret } = made.json().data as { key: { id: string }; secret: string };
    const hit = () => t.app.inject({ url: '/api/random-color', headers: { 'x-api-key': secret } });
    // Not across the clock minute's edge (the key's window).
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 5000) await new Promise((r) => setTimeout(r, left + 50));
    expect([(await hit()).statusCode, (await hit()).statusCode, (await hit()).statusCode]).toEqual([200, 200, 429]);
    await t.app.inject({ method: 'DELETE', url: `/api/admin/api-keys/${key.id}`, headers: admin });
    expect((await hit()).statusCode).toBe(401);
  });
});
