import { afterAll, beforeAll, expect, it } from 'vitest';
import { bearer, describeEachDb, getTestInstance, login, type TestInstance } from './helpers.js';

describeEachDb('public API usage statistics', (dialect) => {
  let t: TestInstance;
  let token: string;
  beforeAll(async () => {
    t = await getTestInstance(dialect);
    token = (await login(t.app)).accessToken;
  });
  afterAll(() => t.close());

  it('counts requests and errors per endpoint and day, before and after a flush', async () => {
    for (let i = 0; i < 3; i++) await t.app.inject('/api/mood-quote');
    await t.app.inject('/api/mood-quote?style=nonsense');
    const read = async () => {
      const res = await t.app.inject({ url: '/api/admin/usage?endpoint=/api/mood-quote', headers: bearer(token) });
      expect(res.statusCode).toBe(200);
      return res.json().data.items as Array<{ endpoint: string; requests: number; errors: number; p99: number }>;
    };
    const before = await read();
    expect(before).toHaveLength(1);
    expect(before[0]).toMatchObject({ endpoint: '/api/mood-quote', requests: 4 });
    expect(before[0].errors).toBeGreaterThanOrEqual(1);
    await t.app.usage.flush();
    await t.app.inject('/api/mood-quote');
    const after = await read();
    expect(after[0].requests).toBe(5);
    expect(after[0].p99).toBeGreaterThan(0);
  });

  it('needs a token to read usage', async () => {
    expect((await t.app.inject('/api/admin/usage')).statusCode).toBe(401);
  });

  it('exposes Prometheus metrics with per-route labels', async () => {
    const res = await t.app.inject('/metrics');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('tianji_http_request_duration_seconds_bucket');
    expect(res.body).toContain('route="/api/mood-quote"');
  });
});
