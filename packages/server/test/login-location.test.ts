import { expect, it } from 'vitest';
import { describeEachDb, login, loginFrom, useTestApp } from './helpers.js';
import { adminCall, as, createUser, PASSWORD } from './admin-fixtures.js';

const SHENZHEN = { zh: '广东省 深圳市 电信', en: 'Shenzhen, Guangdong (China Telecom)' };
const LOOPBACK = { zh: '本机', en: 'This machine' };
const INTERNAL = { zh: '内网地址', en: 'Internal network' };
const UNKNOWN = { zh: '未知', en: 'Unknown' };

describeEachDb('登录地点 in the login log and the session lists', (dialect) => {
  // Behind a proxy on this machine, as deployed: the sign-in's address is the one X-Forwarded-For names.
  const t = useTestApp(dialect, { TRUST_PROXY: '127.0.0.1' });
  let n = 0;

  /** A new user signed in from `from` (no header: this machine itself); its token and session id. */
  async function signInFrom(from: string | undefined) {
    const username = `located${++n}`;
    await createUser(await adminCall(t.app), username);
    const { accessToken } = from
      ? await loginFrom(t.app, from, username, PASSWORD)
      : await login(t.app, username, PASSWORD);
    const me = as(t.app, accessToken);
    const own = (await me('GET', '/api/auth/sessions')).json().data as Array<Record<string, unknown>>;
    return { username, me, own };
  }

  /** The place of `username`'s rows in the login log and in the operator's session list. */
  async function placesOf(username: string) {
    const admin = await adminCall(t.app);
    const log = (await admin('GET', `/api/login-logs?keyword=${username}`)).json().data.items;
    const sessions = (await admin('GET', `/api/sessions?keyword=${username}`)).json().data.items;
    return {
      log: log.map((r: { location: unknown }) => r.location),
      sessions: sessions.map((r: { location: unknown }) => r.location),
    };
  }

  it('a sign-in from a public address shows its province, city and operator everywhere it is listed', async () => {
    const { username, own } = await signInFrom('14.21.64.1');
    expect(own).toEqual([expect.objectContaining({ ip: '14.21.64.1', location: SHENZHEN, current: true })]);
    expect(await placesOf(username)).toEqual({ log: [SHENZHEN], sessions: [SHENZHEN] });
  });

  it('a sign-in from this machine shows 本机, from a private network 内网地址, from an address no database places 未知', async () => {
    for (const [from, place] of [
      [undefined, LOOPBACK],
      ['192.168.1.20', INTERNAL],
      ['198.51.100.7', UNKNOWN],
    ] as const) {
      const { username, own } = await signInFrom(from);
      expect(
        own.map((s) => s.location),
        from,
      ).toEqual([place]);
      expect(await placesOf(username), from).toEqual({ log: [place], sessions: [place] });
    }
  });

  it('a failed sign-in and the end of a session are placed too, and the CSV export carries the Chinese place', async () => {
    const username = `located${++n}`;
    await createUser(await adminCall(t.app), username);
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username, password: 'not-the-password' },
      headers: { 'x-forwarded-for': '14.21.64.1' },
    });
    const { accessToken, refreshToken } = await login(t.app, username, PASSWORD);
    const out = await as(t.app, accessToken)('POST', '/api/auth/logout', { refreshToken });
    expect(out.statusCode, out.body).toBeLessThan(300);
    const { log } = await placesOf(username);
    expect(log).toEqual([LOOPBACK, LOOPBACK, SHENZHEN]); // newest first: sign-out, sign-in, the failure
    const csv = (await (await adminCall(t.app))('GET', `/api/login-logs/export?keyword=${username}`)).body;
    const [header, ...rows] = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    const at = header.split(',').indexOf('登录地点');
    expect(rows.map((r) => r.split(',')[at])).toEqual(['本机', '本机', SHENZHEN.zh]);
  });
});
