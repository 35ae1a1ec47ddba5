import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { MENUS } from '../src/catalogue/index.js';
import { adminCall, userWithGrants, type Call } from './admin-fixtures.js';
import {
  capturedLog,
  describeEachDb,
  getTestInstance,
  REDIS_URL,
  testConfig,
  type TestInstance,
  useTestApp,
} from './helpers.js';

const MENU = MENUS.apiKeys.code;
const USAGE = MENUS.usage.code;
const ENDPOINT = '/api/mood-quote';

interface Created {
  key: { id: string; prefix: string; status: string; graceUntil: string | null; lastUsedAt: string | null };
  secret: string;
}

async function createKey(admin: Call, body: Record<string, unknown> = {}): Promise<Created> {
  const res = await admin('POST', '/api/admin/api-keys', { name: 'partner', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as Created;
}

const call = (app: FastifyInstance, secret?: string, url = ENDPOINT, headers: Record<string, string> = {}) =>
  app.inject({ url, headers: { ...(secret && { 'x-api-key': secret }), ...headers } });

/** Not within the last seconds of a clock minute: the per-minute window must not turn over mid-test. */
async function awayFromMinuteEdge() {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 8000) await new Promise((r) => setTimeout(r, left + 50));
}

describeEachDb('API keys', (dialect) => {
  let t: TestInstance;
  let admin: Call;
  const log = capturedLog();
  beforeAll(async () => {
    // On PostgreSQL with a test Redis, the quotas and change notices go through Redis, as in a cluster.
    const redis: Record<string, string> = dialect === 'postgres' && REDIS_URL ? { REDIS_URL } : {};
    t = await getTestInstance(
      dialect,
      { LOG_REQUESTS: 'true', ...redis },
      { logger: { level: 'trace', stream: log.stream } },
    );
    admin = await adminCall(t.app);
  });
  afterAll(() => t.close());

  it('create → use → usage counted per key → rotate (old valid in grace, then refused) → revoke (refused at once)', async () => {
    const { key, secret } = await createKey(admin, { note: '测试' });
    expect(secret).toMatch(/^tj_[A-Za-z0-9_-]{43}$/);
    expect(key.prefix).toBe(secret.slice(3, 11));
    expect(key.status).toBe('active');
    // Shown once: never in a read.
    expect((await admin('GET', `/api/admin/api-keys/${key.id}`)).body).not.toContain(secret);

    const used = await call(t.app, secret);
    expect(used.statusCode).toBe(200);
    expect(used.headers['ratelimit-limit']).toBe('600');
    expect(used.headers['ratelimit-remaining']).toBe('599');
    expect(Number(used.headers['ratelimit-reset'])).toBeGreaterThan(0);
    expect((await t.app.inject({ url: ENDPOINT, headers: { authorization: `Bearer ${secret}` } })).statusCode).toBe(
      200,
    );
    await call(t.app); // anonymous

    const usage = await admin('GET', `/api/admin/usage?endpoint=${ENDPOINT}&apiKey=${key.id}`);
    expect(usage.json().data.items[0]).toMatchObject({ endpoint: ENDPOINT, requests: 2 });
    await t.app.usage.flush();
    const callers = (await admin('GET', '/api/admin/usage/callers')).json().data.items as Array<{
      apiKeyId: string | null;
      prefix: string | null;
      requests: number;
    }>;
    expect(callers.find((c) => c.apiKeyId === key.id)).toMatchObject({ prefix: key.prefix, requests: 2 });
    expect(callers.find((c) => c.apiKeyId === null)?.requests).toBeGreaterThanOrEqual(1);
    expect((await admin('GET', `/api/admin/api-keys/${key.id}`)).json().data.lastUsedAt).not.toBeNull();

    const rotated = await admin('POST', `/api/admin/api-keys/${key.id}/rotate`, { graceMinutes: 5 });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const { secret: next, key: after } = rotated.json().data as Created;
    expect(after.graceUntil).not.toBeNull();
    expect((await call(t.app, secret)).statusCode).toBe(200);
    expect((await call(t.app, next)).statusCode).toBe(200);
    // The grace period ends: the old secret is refused, the new one still works.
    await t.db.kysely
      .updateTable('api_keys')
      .set({ grace_until: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', key.id)
      .execute();
    await t.app.apiKeys.changed();
    expect((await call(t.app, secret)).statusCode).toBe(401);
    expect((await call(t.app, next)).statusCode).toBe(200);

    expect((await admin('DELETE', `/api/admin/api-keys/${key.id}`)).statusCode).toBe(204);
    const refused = await call(t.app, next);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: 401, msg: '接口密钥无效或已失效', data: null });
    expect((await admin('GET', `/api/admin/api-keys/${key.id}`)).json().data.status).toBe('revoked');
  });

  it('a rotation without grace refuses the old secret at once', async () => {
    const { key, secret } = await createKey(admin);
    expect((await call(t.app, secret)).statusCode).toBe(200);
    const { secret: next } = (await admin('POST', `/api/admin/api-keys/${key.id}/rotate`, { graceMinutes: 0 })).json()
      .data as Created;
    expect((await call(t.app, secret)).statusCode).toBe(401);
    expect((await call(t.app, next)).statusCode).toBe(200);
  });

  it('a wrong, a revoked and an expired key get the same answer, and none is served as anonymous', async () => {
    const revoked = await createKey(admin);
    await admin('DELETE', `/api/admin/api-keys/${revoked.key.id}`);
    const expiring = await createKey(admin, { expiresAt: new Date(Date.now() + 60_000).toISOString() });
    await t.db.kysely
      .updateTable('api_keys')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', expiring.key.id)
      .execute();
    await t.app.apiKeys.changed();
    const wrong = `tj_${'A'.repeat(43)}`;
    const answers = await Promise.all([wrong, 'tj_short', revoked.secret, expiring.secret].map((s) => call(t.app, s)));
    for (const a of answers) {
      expect(a.statusCode).toBe(401);
      const { timestamp: _, ...body } = a.json();
      expect(body).toEqual({ code: 401, msg: '接口密钥无效或已失效', data: null });
    }
    expect((await admin('GET', `/api/admin/api-keys/${expiring.key.id}`)).json().data.status).toBe('expired');
    expect((await admin('GET', '/api/admin/api-keys?status=expired')).json().data.items).toHaveLength(1);
  });

  it('a per-key quota is exact under 200 concurrent requests', async () => {
    const { secret } = await createKey(admin, { perMinute: 50 });
    await awayFromMinuteEdge();
    const answers = await Promise.all(Array.from({ length: 200 }, () => call(t.app, secret)));
    const ok = answers.filter((a) => a.statusCode === 200);
    const limited = answers.filter((a) => a.statusCode === 429);
    expect(ok).toHaveLength(50);
    expect(limited).toHaveLength(150);
    expect(limited[0].json().msg).toMatch(/每分钟最多 50 次/);
    expect(Number(limited[0].headers['retry-after'])).toBeGreaterThan(0);
    expect(limited[0].headers['ratelimit-remaining']).toBe('0');
    expect(ok.map((a) => Number(a.headers['ratelimit-remaining'])).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i),
    );
  });

  it('a per-day quota counts only what the minute allowed', async () => {
    const { secret } = await createKey(admin, { perMinute: 10, perDay: 3 });
    await awayFromMinuteEdge();
    const codes = [];
    for (let i = 0; i < 6; i++) codes.push((await call(t.app, secret)).statusCode);
    expect(codes).toEqual([200, 200, 200, 429, 429, 429]);
    expect((await call(t.app, secret)).json().msg).toMatch(/每天（北京时间）最多 3 次/);
  });

  it('refuses a group, an origin or an address the key does not allow (403 naming it)', async () => {
    const grouped = await createKey(admin, { groups: ['daily'] });
    const res = await call(t.app, grouped.secret);
    expect(res.statusCode).toBe(403);
    expect(res.json().msg).toContain('心情语录');
    const origin = await createKey(admin, { origins: ['https://partner.example'] });
    expect((await call(t.app, origin.secret, ENDPOINT, { origin: 'https://partner.example' })).statusCode).toBe(200);
    const other = await call(t.app, origin.secret, ENDPOINT, { origin: 'https://evil.example' });
    expect(other.statusCode).toBe(403);
    expect(other.json().msg).toContain('https://evil.example');
    const addressed = await createKey(admin, { addresses: ['10.0.0.0/8'] });
    expect((await call(t.app, addressed.secret)).statusCode).toBe(403);
    const local = await createKey(admin, { addresses: ['127.0.0.1'] });
    expect((await call(t.app, local.secret)).statusCode).toBe(200);
    const bad = await admin('POST', '/api/admin/api-keys', { name: 'x', addresses: ['10.0.0.0/33'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^参数 addresses\.0 无效/);
  });

  it('null clears a limit, a note or a list back to "the default / anyone", on create and on edit', async () => {
    const nulls = { note: null, perMinute: null, perDay: null, groups: null, origins: null, addresses: null };
    const created = await admin('POST', '/api/admin/api-keys', { name: 'open', ...nulls });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data.key).toMatchObject(nulls);
    const narrow = await createKey(admin, {
      note: '合作方',
      perMinute: 5,
      groups: ['daily'],
      addresses: ['10.0.0.0/8'],
    });
    expect((await call(t.app, narrow.secret)).statusCode).toBe(403);
    const cleared = await admin('PATCH', `/api/admin/api-keys/${narrow.key.id}`, nulls);
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().data).toMatchObject(nulls);
    expect((await call(t.app, narrow.secret)).statusCode).toBe(200);
  });

  it('a group that requires a key refuses anonymous callers at once, and serves keyed ones', async () => {
    const { secret } = await createKey(admin);
    const set = await admin('PUT', '/api/admin/api-keys/policy', { requireKeyGroups: ['mood'] });
    expect(set.statusCode, set.body).toBe(200);
    try {
      const anon = await call(t.app);
      expect(anon.statusCode).toBe(401);
      expect(anon.json().msg).toMatch(/需要接口密钥/);
      expect((await call(t.app, undefined, '/api/almanac')).statusCode).toBe(200);
      expect((await call(t.app, secret)).statusCode).toBe(200);
      expect((await admin('GET', '/api/admin/api-keys/policy')).json().data).toEqual({ requireKeyGroups: ['mood'] });
    } finally {
      await admin('PUT', '/api/admin/api-keys/policy', { requireKeyGroups: [] });
    }
    expect((await call(t.app)).statusCode).toBe(200);
  });

  it('the hitokoto.cn drop-in refuses a key in its own {status, message} shape, as the 每日推荐 group', async () => {
    const drop = (secret?: string) => call(t.app, secret, '/hitokoto/');
    const shape = (res: Awaited<ReturnType<typeof drop>>, status: number) => {
      expect(res.statusCode, res.body).toBe(status);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['data', 'message', 'status', 'ts']);
      expect(body).toMatchObject({ status, data: [] });
      return body.message as string;
    };
    expect(shape(await drop(`tj_${'a'.repeat(43)}`), 401)).toBe('接口密钥无效或已失效');
    // A key for other groups only is refused there, as at /api/hitokoto; a daily key is served.
    const mood = await createKey(admin, { groups: ['mood'] });
    expect(shape(await drop(mood.secret), 403)).toContain('每日推荐');
    expect((await call(t.app, mood.secret, '/api/hitokoto')).statusCode).toBe(403);
    const daily = await createKey(admin, { groups: ['daily'], perMinute: 1 });
    await awayFromMinuteEdge();
    expect((await drop(daily.secret)).statusCode).toBe(200);
    const over = await drop(daily.secret);
    expect(shape(over, 429)).toMatch(/^接口密钥的请求配额已用完：每分钟最多 1 次/);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    await admin('PUT', '/api/admin/api-keys/policy', { requireKeyGroups: ['daily'] });
    try {
      expect(shape(await drop(), 401)).toMatch(/「每日推荐」分组的接口需要接口密钥/);
    } finally {
      await admin('PUT', '/api/admin/api-keys/policy', { requireKeyGroups: [] });
    }
    expect((await drop()).statusCode).toBe(200);
  });

  it('a delegated operator needs the points, and cannot give a key more than the server defaults', async () => {
    const viewer = await userWithGrants(t.app, admin, 'keyviewer', { [MENU]: 1 });
    expect((await viewer.call('GET', '/api/admin/api-keys')).statusCode).toBe(200);
    expect((await viewer.call('POST', '/api/admin/api-keys', { name: 'x' })).statusCode).toBe(403);
    expect((await viewer.call('GET', '/api/admin/api-keys/export')).statusCode).toBe(403);
    const maker = await userWithGrants(t.app, admin, 'keymaker', { [MENU]: 1 | 2 | 4 | 512 });
    expect((await maker.call('POST', '/api/admin/api-keys', { name: 'ok', perMinute: 600 })).statusCode).toBe(201);
    const over = await maker.call('POST', '/api/admin/api-keys', { name: 'big', perMinute: 601 });
    expect(over.statusCode).toBe(403);
    expect(over.json().code).toBe('PRIVILEGE_ESCALATION');
    expect(over.json().message).toContain('600');
    const exported = await maker.call('GET', '/api/admin/api-keys/export');
    expect(exported.statusCode).toBe(200);
    expect(exported.body).toContain('tj_');
    expect(
      (await maker.call('POST', `/api/admin/api-keys/batch-delete`, { ids: [crypto.randomUUID()] })).statusCode,
    ).toBe(403);
    // The usage report by caller is the usage menu's.
    expect((await maker.call('GET', '/api/admin/usage/callers')).statusCode).toBe(403);
    const reader = await userWithGrants(t.app, admin, 'usagereader', { [USAGE]: 1 });
    expect((await reader.call('GET', '/api/admin/usage/callers')).statusCode).toBe(200);
  });

  it('batch revoke counts the keys it revoked; an export lists them without any secret', async () => {
    const a = await createKey(admin, { name: 'batch-a' });
    const b = await createKey(admin, { name: 'batch-b' });
    const res = await admin('POST', '/api/admin/api-keys/batch-delete', { ids: [a.key.id, b.key.id] });
    expect(res.json().data).toEqual({ deleted: 2 });
    expect((await admin('POST', '/api/admin/api-keys/batch-delete', { ids: [a.key.id] })).json().data).toEqual({
      deleted: 0,
    });
    expect((await call(t.app, a.secret)).statusCode).toBe(401);
    const csv = (await admin('GET', '/api/admin/api-keys/export?keyword=batch')).body;
    expect(csv).toContain(`tj_${a.key.prefix}…`);
    expect(csv).not.toContain(a.secret);
  });

  it('no secret appears in a log line, an audit row or an error message', async () => {
    const { key, secret } = await createKey(admin, { name: 'secret-check' });
    const rotated = (await admin('POST', `/api/admin/api-keys/${key.id}/rotate`, { graceMinutes: 1 })).json()
      .data as Created;
    await call(t.app, secret);
    await call(t.app, rotated.secret, '/api/mood-quote?style=nonsense');
    await t.app.inject({ url: '/api/no-such', headers: { 'x-api-key': rotated.secret } });
    await admin('DELETE', `/api/admin/api-keys/${key.id}`);
    const refused = await call(t.app, rotated.secret);
    const secrets = [secret, rotated.secret];
    const hashes = await t.db.kysely.selectFrom('api_keys').select(['secret_hash', 'old_secret_hash']).execute();
    const audit = JSON.stringify(await t.db.kysely.selectFrom('audit_logs').selectAll().execute());
    const logged = JSON.stringify(log.lines);
    expect(log.lines.length).toBeGreaterThan(10);
    expect(audit).toContain('secret-check');
    for (const s of secrets) {
      expect(logged).not.toContain(s);
      expect(audit).not.toContain(s);
      expect(refused.body).not.toContain(s);
      // Not even a part long enough to help a guess.
      expect(logged).not.toContain(s.slice(11));
    }
    for (const h of hashes) {
      expect(audit).not.toContain(h.secret_hash);
      if (h.old_secret_hash) expect(audit).not.toContain(h.old_secret_hash);
    }
  });
});

describe.skipIf(!REDIS_URL)('API keys across instances (Redis)', () => {
  it('share one quota, and a revocation on one instance is refused by another within a second', async () => {
    const env = { REDIS_URL: REDIS_URL! };
    const a = await getTestInstance('sqlite', env);
    const b = await buildApp({ config: testConfig(env), db: a.db, logger: false });
    try {
      const admin = await adminCall(a.app);
      const { key, secret } = await createKey(admin, { perMinute: 30 });
      await awayFromMinuteEdge();
      const answers = await Promise.all(
        Array.from({ length: 80 }, (_, i) =>
          (i % 2 ? a.app : b).inject({ url: ENDPOINT, headers: { 'x-api-key': secret } }),
        ),
      );
      expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(30);
      expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(50);

      const fresh = await createKey(admin);
      expect((await b.inject({ url: ENDPOINT, headers: { 'x-api-key': fresh.secret } })).statusCode).toBe(200);
      await admin('DELETE', `/api/admin/api-keys/${fresh.key.id}`);
      const started = Date.now();
      await expect
        .poll(async () => (await b.inject({ url: ENDPOINT, headers: { 'x-api-key': fresh.secret } })).statusCode, {
          timeout: 1000,
          interval: 20,
        })
        .toBe(401);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(key.id).toBeTruthy();
    } finally {
      await b.close();
      await a.close();
    }
  });
});

describe('API keys and the per-IP limit', () => {
  const t = useTestApp('sqlite', { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW: '60' });

  it('a keyed caller is counted against its key, never against the address it calls from', async () => {
    const admin = await adminCall(t.app);
    const { secret } = await createKey(admin, { perMinute: 20 });
    await awayFromMinuteEdge();
    const from = (headers: Record<string, string>) =>
      t.app.inject({ url: ENDPOINT, remoteAddress: '192.0.2.30', headers });
    // Well past the address's 3: each answer reports the key's window.
    for (let i = 0; i < 8; i++) {
      const res = await from({ 'x-api-key': secret });
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe('20');
      expect(res.headers['ratelimit-remaining']).toBe(String(19 - i));
    }
    // The same address without the key still has its own 3, untouched by the keyed calls.
    for (let i = 0; i < 3; i++) {
      const res = await from({});
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe('3');
    }
    const limited = await from({});
    expect(limited.statusCode).toBe(429);
    expect(limited.json().msg).toContain('每个 IP');
  });
});
