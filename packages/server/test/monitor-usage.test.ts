import { afterAll, beforeAll, expect, it } from 'vitest';
import { LookupError } from '../src/errors.js';
import { MENUS } from '../src/catalogue/index.js';
import { PERMISSION } from '../src/admin/permissions/points.js';
import { adminCall, userWithGrants, type Call } from './admin-fixtures.js';
import { bearer, describeEachDb, getTestInstance, login, type TestInstance, useTestApp } from './helpers.js';

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

  it('counts into the new day at Beijing midnight, and the old day keeps what it had', async () => {
    const endpoint = '/api/__usage-day-turn';
    t.app.usage.record(endpoint, 3, undefined, '', '2026-11-26');
    t.app.usage.record(endpoint, 3, undefined, '', '2026-11-26');
    t.app.usage.record(endpoint, 3, 'caller', '', '2026-11-27');
    const rows = await t.app.usage.report({ endpoint });
    expect(rows.map((r) => [r.day, r.requests, r.callerErrors])).toEqual([
      ['2026-11-27', 1, 1],
      ['2026-11-26', 2, 0],
    ]);
  });

  it('names a key by caller only to a reader of the key menu; others see 「接口密钥」 and the counts', async () => {
    const admin = await adminCall(t.app);
    const made = (await admin('POST', '/api/admin/api-keys', { name: '合作方 A' })).json().data;
    for (let i = 0; i < 3; i++) await t.app.inject({ url: '/api/mood-quote', headers: { 'x-api-key': made.secret } });
    await t.app.usage.flush();
    const callers = async (as: Call) => {
      const res = await as('GET', '/api/admin/usage/callers');
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.items as Array<{ apiKeyId: string | null; name: string | null; prefix: string | null }>;
    };
    const { SEARCH } = PERMISSION;
    const usageOnly = (await userWithGrants(t.app, admin, 'usageonly', { [MENUS.usage.code]: SEARCH })).call;
    const keysToo = (
      await userWithGrants(t.app, admin, 'usagekeys', { [MENUS.usage.code]: SEARCH, [MENUS.apiKeys.code]: SEARCH })
    ).call;

    const hidden = await callers(usageOnly);
    expect(hidden.find((c) => c.apiKeyId === made.key.id)).toMatchObject({
      name: '接口密钥',
      prefix: null,
      requests: 3,
    });
    expect(hidden.find((c) => c.apiKeyId === null)).toMatchObject({ name: null, prefix: null });
    expect(JSON.stringify(hidden)).not.toContain(made.key.prefix);
    expect(JSON.stringify(hidden)).not.toContain('合作方');
    for (const reader of [keysToo, admin])
      expect((await callers(reader)).find((c) => c.apiKeyId === made.key.id)).toMatchObject({
        name: '合作方 A',
        prefix: made.key.prefix,
        requests: 3,
      });
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

describeEachDb('caller errors apart from server faults', (dialect) => {
  const t = useTestApp(
    dialect,
    {},
    {
      prepare: (app) => {
        // A public route that fails on the server's side, as a bug would.
        app.get('/api/test-fault', { config: { area: 'lookup' } }, () => {
          throw new Error('simulated fault');
        });
        // A worker pool past its queue's bound (engines/workers/worker-entry.ts): the server's doing, not the caller's.
        app.get('/api/test-busy', { config: { area: 'lookup' } }, () => {
          throw new LookupError('繁忙，请稍后重试', 'server');
        });
      },
    },
  );
  let token: string;
  beforeAll(async () => {
    token = (await login(t.app)).accessToken;
  });

  const usageOf = async (endpoint: string) => {
    const res = await t.app.inject({ url: `/api/admin/usage?endpoint=${endpoint}`, headers: bearer(token) });
    return res.json().data.items[0] as { requests: number; errors: number; callerErrors: number; serverErrors: number };
  };

  it('counts a typo in a parameter as the caller’s error, though the contract answers it 500', async () => {
    await t.app.inject('/api/bmi?height=175&weight=70');
    const typo = await t.app.inject('/api/bmi?heigth=175&weight=70');
    expect(typo.statusCode).toBe(500);
    expect(typo.json().msg).toMatch(/^参数 heigth 无效/);
    expect((await t.app.inject('/api/bmi?height=abc&weight=70')).statusCode).toBe(500);
    expect(await usageOf('/api/bmi')).toMatchObject({ requests: 3, errors: 2, callerErrors: 2, serverErrors: 0 });
    // The same after the tallies are written to the database and read back.
    await t.app.usage.flush();
    await t.app.inject('/api/bmi?weight=70');
    expect(await usageOf('/api/bmi')).toMatchObject({ requests: 4, errors: 3, callerErrors: 3, serverErrors: 0 });
  });

  it('counts a failure of the server, or a server too busy to answer, as a server fault', async () => {
    const res = await t.app.inject('/api/test-fault');
    expect(res.statusCode).toBe(500);
    expect(res.json().msg).toBe('服务器内部错误，请稍后重试');
    expect((await t.app.inject('/api/test-busy')).json().msg).toBe('繁忙，请稍后重试');
    await t.app.usage.flush();
    expect(await usageOf('/api/test-fault')).toMatchObject({ errors: 1, callerErrors: 0, serverErrors: 1 });
    expect(await usageOf('/api/test-busy')).toMatchObject({ errors: 1, callerErrors: 0, serverErrors: 1 });
  });

  it('labels failures in /metrics by whose fault they are, unknown paths included', async () => {
    await t.app.inject('/api/no-such-endpoint');
    const body = (await t.app.inject('/metrics')).body;
    const count = (labels: string) =>
      Number(new RegExp(`^tianji_http_request_failures_total\\{${labels}\\} (\\d+)$`, 'm').exec(body)?.[1] ?? 0);
    expect(count('route="/api/bmi",status="500",fault="caller"')).toBe(3);
    expect(count('route="/api/bmi",status="500",fault="server"')).toBe(0);
    expect(count('route="/api/test-fault",status="500",fault="server"')).toBe(1);
    expect(count('route="\\(unmatched\\)",status="404",fault="caller"')).toBe(1);
  });
});
