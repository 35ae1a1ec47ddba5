import { beforeAll, expect, it } from 'vitest';
import { MENUS } from '../src/catalogue/index.js';
import { MIGRATION_NAMES } from '../src/db/migrate.js';
import { PERMISSION } from '../src/admin/permissions/points.js';
import { adminCall, FORBIDDEN_BODY, userWithGrants, type Call } from './admin-fixtures.js';
import { REDIS_URL, describeEachDb, useTestApp } from './helpers.js';
import type { ServerStatus } from '../src/monitor/server-status.js';

const URL = '/api/admin/server-status';

describeEachDb('服务监控 (server status)', (dialect) => {
  // Redis where the test server has one, on one dialect only: the answer must say whether it is there either way.
  const redis: Record<string, string> = dialect === 'postgres' && REDIS_URL ? { REDIS_URL } : {};
  const t = useTestApp(dialect, redis, {
    prepare: (app) => {
      app.get('/test-fault', () => {
        throw new Error('simulated fault');
      });
    },
  });
  let admin: Call;
  beforeAll(async () => {
    admin = await adminCall(t.app);
  });
  const status = async (as: Call = admin) => {
    const res = await as('GET', URL);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as ServerStatus;
  };

  it('answers with the process, memory, CPU and event loop, in plausible values', async () => {
    const s = await status();
    expect(new Date(s.process.startedAt).getTime()).toBeLessThanOrEqual(new Date(s.checkedAt).getTime());
    expect(s.process.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(s.process.node).toBe(process.version);
    expect(s.memory.rss).toBeGreaterThan(10 * 1024 * 1024);
    expect(s.memory.heapUsed).toBeLessThanOrEqual(s.memory.heapTotal);
    expect(s.memory.systemFree).toBeLessThanOrEqual(s.memory.systemTotal);
    expect(s.cpu.cores).toBeGreaterThan(0);
    expect(s.cpu.load).toHaveLength(3);
    expect(s.cpu.percent).toBeGreaterThanOrEqual(0);
    expect(s.eventLoop.p50).toBeLessThanOrEqual(s.eventLoop.p99);
    expect(s.eventLoop.p99).toBeLessThanOrEqual(s.eventLoop.max);
    expect(s.passwordPool.threads).toBeGreaterThanOrEqual(2);
    expect(s.passwordPool.queued).toBe(0);
  });

  it('uptime grows while the start time stays', async () => {
    const first = await status();
    await expect
      .poll(async () => (await status()).process.uptimeSeconds, { timeout: 5000, interval: 200 })
      .toBeGreaterThan(first.process.uptimeSeconds);
    expect((await status()).process.startedAt).toBe(first.process.startedAt);
  });

  it('names the database kind and its latest migration, and times select 1', async () => {
    const { database } = await status();
    expect(database.kind).toBe(dialect);
    expect(database.ok).toBe(true);
    expect(database.latencyMs).toBeGreaterThanOrEqual(0);
    expect(database.migration).toBe(MIGRATION_NAMES.at(-1));
    if (dialect === 'postgres') {
      expect(database.pool?.max).toBeGreaterThan(0);
      expect(database.pool?.size).toBeGreaterThanOrEqual(database.pool?.idle ?? 0);
    } else expect(database.pool).toBeNull();
  });

  it('says whether Redis is configured and connected', async () => {
    const { redis: r } = await status();
    if ('REDIS_URL' in redis) {
      expect(r).toMatchObject({ configured: true, connected: true });
      expect(r.latencyMs).toBeGreaterThanOrEqual(0);
    } else expect(r).toEqual({ configured: false, connected: false, latencyMs: null });
  });

  it('counts the last minute’s answers, a 500 as a server fault and a 400 as the caller’s', async () => {
    const before = (await status()).requests;
    for (let i = 0; i < 3; i++) expect((await t.app.inject('/healthz')).statusCode).toBe(200);
    expect((await admin('GET', '/api/users?page=0')).statusCode).toBe(400);
    expect((await t.app.inject('/test-fault')).statusCode).toBe(500);
    const after = (await status()).requests;
    // The status reading itself is an answer too (the first one, counted once it was sent).
    expect(after.perMinute - before.perMinute).toBe(3 + 1 + 1 + 1);
    expect(after.callerErrorsPerMinute - before.callerErrorsPerMinute).toBe(1);
    expect(after.serverFaultsPerMinute - before.serverFaultsPerMinute).toBe(1);
  });

  it('is refused (403) to a user without the menu, and shown to an operator granted only this menu', async () => {
    const { SEARCH } = PERMISSION;
    const usageOnly = await userWithGrants(t.app, admin, 'usage_reader', { [MENUS.usage.code]: SEARCH });
    const denied = await usageOnly.call('GET', URL);
    expect([denied.statusCode, denied.body]).toEqual([403, FORBIDDEN_BODY]);

    const operator = await userWithGrants(t.app, admin, 'status_reader', { [MENUS.serverStatus.code]: SEARCH });
    expect((await status(operator.call)).database.kind).toBe(dialect);
    const me = (await operator.call('GET', '/api/auth/me')).json().data;
    const codes = (nodes: Array<{ code: string; children: unknown[] }>): string[] =>
      nodes.flatMap((n) => [n.code, ...codes(n.children as typeof nodes)]);
    expect(codes(me.menus)).toEqual([MENUS.monitor.code, MENUS.serverStatus.code]);
    expect((await operator.call('GET', '/api/admin/usage')).statusCode).toBe(403);
  });

  it('needs a token', async () => {
    expect((await t.app.inject(URL)).statusCode).toBe(401);
  });
});
