import { afterAll, beforeAll, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { buildApp } from '../src/app.js';
import { ADMIN, bearer, describeEachDb, getTestInstance, login, testConfig, type TestInstance } from './helpers.js';
import { as, createUser, PASSWORD, type Call } from './admin-fixtures.js';
import { refresh } from './auth-fixtures.js';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const DAY_MS = 86_400_000;

describeEachDb('login log', (dialect) => {
  let t: TestInstance;
  let admin: Call;
  let n = 0;
  let skew = 0;
  /** Each test signs in from its own address, so the per-IP throttle of one cannot touch another. */
  const address = () => `198.51.100.${++n}`;
  const fresh = () => `logged${++n}`;
  const signIn = (username: string, password: string, remoteAddress: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username, password },
      remoteAddress,
      headers: { 'user-agent': CHROME, 'x-client-kind': 'web' },
    });
  /** The rows about `username` (exact), oldest first. */
  const rowsOf = async (username: string) => {
    const items = (await admin('GET', `/api/login-logs?keyword=${encodeURIComponent(username)}&pageSize=100`)).json()
      .data.items as Array<Record<string, unknown>>;
    return items.filter((r) => r.username === username).reverse();
  };

  beforeAll(async () => {
    t = await getTestInstance(
      dialect,
      { LOGIN_MAX_FAILURES: '3', LOGIN_LOG_RETENTION: '180d' },
      { now: () => Date.now() + skew },
    );
    admin = as(t.app, (await login(t.app)).accessToken);
  });
  afterAll(() => t.close());

  it('a successful sign-in is one row with the user, address, device and client kind', async () => {
    const username = fresh();
    const id = await createUser(admin, username);
    const ip = address();
    expect((await signIn(username, PASSWORD, ip)).statusCode).toBe(200);
    const rows = await rowsOf(username);
    expect(rows).toEqual([
      expect.objectContaining({
        event: 'login',
        result: 'success',
        reason: '',
        userId: id,
        ip,
        userAgent: CHROME,
        deviceLabel: 'Chrome 131 · Windows 10',
        clientKind: 'web',
      }),
    ]);
    expect(rows[0].sessionId).toEqual(expect.any(String));
  });

  it('each kind of failed sign-in is one row with its reason', async () => {
    const unknown = `nobody-${randomUUID().slice(0, 8)}`;
    expect((await signIn(unknown, 'whatever-123', address())).statusCode).toBe(401);
    expect(await rowsOf(unknown)).toEqual([
      expect.objectContaining({ event: 'login', result: 'failure', reason: 'UNKNOWN_USER', userId: null }),
    ]);

    const wrong = fresh();
    const wrongId = await createUser(admin, wrong);
    expect((await signIn(wrong, 'not-the-password', address())).statusCode).toBe(401);
    expect(await rowsOf(wrong)).toEqual([
      expect.objectContaining({ result: 'failure', reason: 'WRONG_PASSWORD', userId: wrongId }),
    ]);

    const disabled = fresh();
    await createUser(admin, disabled, [], { status: 'disabled' });
    expect((await signIn(disabled, PASSWORD, address())).statusCode).toBe(401);
    expect(await rowsOf(disabled)).toEqual([
      expect.objectContaining({ result: 'failure', reason: 'ACCOUNT_DISABLED' }),
    ]);
  });

  it('a throttled key is logged as THROTTLED once, however many attempts it refuses', async () => {
    const username = fresh();
    await createUser(admin, username);
    const ip = address();
    for (let i = 0; i < 3; i++) expect((await signIn(username, 'wrong-password', ip)).statusCode).toBe(401);
    for (let i = 0; i < 200; i++) expect((await signIn(username, PASSWORD, ip)).statusCode).toBe(429);
    expect((await rowsOf(username)).map((r) => r.reason)).toEqual([
      'WRONG_PASSWORD',
      'WRONG_PASSWORD',
      'WRONG_PASSWORD',
      'THROTTLED',
    ]);
  });

  it('sign-out, an operator ending a session, forced sign-out and a refresh replay are each one row', async () => {
    const username = fresh();
    const id = await createUser(admin, username);
    const ip = address();
    const first = (await signIn(username, PASSWORD, ip)).json().data;
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: bearer(first.accessToken),
      payload: { refreshToken: first.refreshToken },
    });

    await signIn(username, PASSWORD, ip);
    const [live] = (await admin('GET', `/api/sessions?userId=${id}`)).json().data.items;
    await admin('DELETE', `/api/sessions/${live.id}`);

    await signIn(username, PASSWORD, ip);
    await admin('POST', `/api/users/${id}/force-logout`);

    const fourth = (await signIn(username, PASSWORD, ip)).json().data;
    await refresh(t.app, fourth.refreshToken);
    skew = 60_000;
    expect((await refresh(t.app, fourth.refreshToken)).json().code).toBe('REFRESH_REUSED');
    skew = 0;

    const rows = (await rowsOf(username)).filter((r) => r.event !== 'login');
    expect(rows.map((r) => [r.event, r.result, r.reason, r.actorUsername])).toEqual([
      ['logout', 'success', '', username],
      ['forced-logout', 'success', 'SESSION_REVOKED', ADMIN.username],
      ['forced-logout', 'success', 'FORCED_LOGOUT', ADMIN.username],
      ['refresh-reused', 'failure', 'REFRESH_REUSED', ''],
    ]);
    for (const r of rows)
      expect(r).toMatchObject({ userId: id, ip, deviceLabel: 'Chrome 131 · Windows 10', clientKind: 'web' });
  });

  it('filters by result, event and time window, and exports a CSV with a byte-order mark', async () => {
    const username = fresh();
    await createUser(admin, username);
    const ip = address();
    await signIn(username, 'wrong-password', ip);
    await signIn(username, PASSWORD, ip);
    const failures = (await admin('GET', `/api/login-logs?keyword=${username}&result=failure`)).json().data;
    expect(failures.items.map((r: { reason: string }) => r.reason)).toEqual(['WRONG_PASSWORD']);
    expect((await admin('GET', `/api/login-logs?ip=${ip}&event=login`)).json().data.total).toBe(2);
    expect((await admin('GET', `/api/login-logs?ip=${ip}&to=2000-01-01`)).json().data.total).toBe(0);
    const bad = await admin('GET', '/api/login-logs?result=maybe');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/result/);

    const csv = await admin('GET', `/api/login-logs/export?ip=${ip}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    expect(csv.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    // As the page shows it (RuoYi's export): Chinese headers, names instead of codes, Beijing time.
    expect(lines[0]).toBe('时间,用户,事件,结果,原因,操作人,地址,登录地点,设备,客户端,浏览器标识,会话编号,用户编号');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2},${username},登录,成功,,`));
    expect(lines[2]).toContain(`,${username},登录,失败,密码错误,`);
    expect(csv.body).not.toContain('WRONG_PASSWORD');
  });

  it('an instance starting up prunes rows past LOGIN_LOG_RETENTION and keeps younger ones', async () => {
    const now = Date.now();
    const row = (id: string, ageDays: number) => ({
      id,
      created_at: new Date(now - ageDays * DAY_MS).toISOString(),
      event: 'login',
      result: 'success',
      reason: '',
      username: 'pruned',
      ip: '',
      user_agent: '',
      device_label: '',
      client_kind: 'web',
      actor_username: '',
    });
    const old = randomUUID();
    const young = randomUUID();
    await t.db.kysely
      .insertInto('login_logs')
      .values([row(old, 181), row(young, 179)])
      .execute();
    // Pruning runs when an instance is ready and hourly after: start a second instance on the same database.
    const other = await buildApp({ config: testConfig({ LOGIN_LOG_RETENTION: '180d' }), db: t.db, logger: false });
    await other.ready();
    await other.close();
    const left = await t.db.kysely.selectFrom('login_logs').select('id').where('id', 'in', [old, young]).execute();
    expect(left.map((r) => r.id)).toEqual([young]);
  });
});
