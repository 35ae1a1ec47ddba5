import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { bitsOf } from '../src/admin/permissions/points.js';
import { ADMIN, bearer, describeEachDb, getTestInstance, login, type TestInstance } from './helpers.js';
import { as, createUser, PASSWORD, userWithGrants, type Call } from './admin-fixtures.js';
import { expectUnauthorized, me, refresh } from './auth-fixtures.js';

const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

async function signInFrom(
  app: FastifyInstance,
  username: string,
  userAgent: string,
  clientKind: string,
  password = PASSWORD,
) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username, password },
    headers: { 'user-agent': userAgent, 'x-client-kind': clientKind },
  });
  if (res.statusCode !== 200) throw new Error(`sign-in ${username}: ${res.statusCode} ${res.body}`);
  return res.json().data as { accessToken: string; refreshToken: string };
}

describeEachDb('sessions', (dialect) => {
  let t: TestInstance;
  let admin: Call;
  let n = 0;
  const freshUser = async () => {
    const username = `member${++n}`;
    return { username, id: await createUser(admin, username) };
  };
  const ownSessions = async (token: string) =>
    (await t.app.inject({ url: '/api/auth/sessions', headers: bearer(token) })).json().data as Array<
      Record<string, unknown>
    >;

  beforeAll(async () => {
    t = await getTestInstance(dialect);
    admin = as(t.app, (await login(t.app)).accessToken);
  });
  afterAll(() => t.close());

  it('two sign-ins are two sessions, listed with device labels and the current one marked', async () => {
    const { username, id } = await freshUser();
    const laptop = await signInFrom(t.app, username, CHROME_WINDOWS, 'web');
    await signInFrom(t.app, username, SAFARI_IPHONE, 'MOBILE');
    const list = await ownSessions(laptop.accessToken);
    expect(list).toHaveLength(2);
    const byLabel = Object.fromEntries(list.map((s) => [s.deviceLabel, s]));
    expect(byLabel['Chrome 131 · Windows 10']).toMatchObject({
      userId: id,
      username,
      clientKind: 'web',
      current: true,
      userAgent: CHROME_WINDOWS,
    });
    expect(byLabel['Safari 17.5 · iOS 17.5']).toMatchObject({ clientKind: 'mobile', current: false });
    // Both opened with the password (passkeys.test and device-flow.test see the other methods).
    expect(list.map((s) => s.signInMethod)).toEqual(['password', 'password']);
    for (const s of list)
      expect(Object.keys(s).sort()).toEqual([
        'clientKind',
        'createdAt',
        'current',
        'deviceLabel',
        'expiresAt',
        'id',
        'ip',
        'lastUsedAt',
        'location',
        'nickname',
        'signInMethod',
        'userAgent',
        'userId',
        'username',
      ]);
  });

  it('a refresh moves last used and keeps the session; an unknown client kind is filed under other', async () => {
    const { username } = await freshUser();
    const s = await signInFrom(t.app, username, 'curl/8.5.0', 'toaster');
    const [before] = await ownSessions(s.accessToken);
    expect(before).toMatchObject({ clientKind: 'other', deviceLabel: 'curl/8.5.0' });
    const next = (await refresh(t.app, s.refreshToken)).json().data;
    const [after] = await ownSessions(next.accessToken);
    expect(after.id).toBe(before.id);
    expect(String(after.lastUsedAt) >= String(before.lastUsedAt)).toBe(true);
    expect(after.current).toBe(true);
  });

  it('ending one of my sessions stops its access token at the next request and its refresh token; the other keeps working', async () => {
    const { username } = await freshUser();
    const laptop = await signInFrom(t.app, username, CHROME_WINDOWS, 'web');
    const phone = await signInFrom(t.app, username, SAFARI_IPHONE, 'mobile');
    const phoneSession = (await ownSessions(laptop.accessToken)).find((s) => !s.current)!;
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${phoneSession.id}`,
      headers: bearer(laptop.accessToken),
    });
    expect(res.statusCode).toBe(204);
    expectUnauthorized(await me(t.app, phone.accessToken), /会话已结束/, 'SESSION_ENDED');
    expectUnauthorized(await refresh(t.app, phone.refreshToken), /revoked/, 'SESSION_ENDED');
    expect((await me(t.app, laptop.accessToken)).statusCode).toBe(200);
    expect((await refresh(t.app, laptop.refreshToken)).statusCode).toBe(200);
    // Ended sessions are no longer listed, and cannot be ended twice.
    expect(await ownSessions(laptop.accessToken)).toHaveLength(1);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/api/auth/sessions/${phoneSession.id}`,
          headers: bearer(laptop.accessToken),
        })
      ).statusCode,
    ).toBe(404);
  });

  it('a password change starts a new session that keeps the client kind and device of the old one', async () => {
    const { username } = await freshUser();
    const s = await signInFrom(t.app, username, 'tianji-cli/1.0', 'cli');
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/password',
      headers: { ...bearer(s.accessToken), 'user-agent': 'tianji-cli/1.0' },
      payload: { oldPassword: PASSWORD, newPassword: 'a-fresh-password-9' },
    });
    expect(res.statusCode).toBe(200);
    const list = await ownSessions(res.json().data.accessToken);
    expect(list.map((x) => [x.clientKind, x.deviceLabel, x.current])).toEqual([['cli', 'tianji-cli/1.0', true]]);
  });

  it('I cannot end someone else’s session through my own routes', async () => {
    const alice = await signInFrom(t.app, (await freshUser()).username, CHROME_WINDOWS, 'web');
    const bob = await signInFrom(t.app, (await freshUser()).username, CHROME_WINDOWS, 'web');
    const [bobSession] = await ownSessions(bob.accessToken);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/api/auth/sessions/${bobSession.id}`,
          headers: bearer(alice.accessToken),
        })
      ).statusCode,
    ).toBe(404);
    expect((await me(t.app, bob.accessToken)).statusCode).toBe(200);
  });

  it('revoke-others ends every other device and keeps this one', async () => {
    const { username } = await freshUser();
    const here = await signInFrom(t.app, username, CHROME_WINDOWS, 'web');
    const a = await signInFrom(t.app, username, SAFARI_IPHONE, 'mobile');
    const b = await signInFrom(t.app, username, 'tianji-cli/1.0', 'cli');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sessions/revoke-others',
      headers: bearer(here.accessToken),
    });
    expect(res.json()).toEqual({ data: { ended: 2 } });
    expectUnauthorized(await me(t.app, a.accessToken), /会话已结束/, 'SESSION_ENDED');
    expectUnauthorized(await me(t.app, b.accessToken), /会话已结束/, 'SESSION_ENDED');
    expect((await me(t.app, here.accessToken)).statusCode).toBe(200);
  });

  it('an operator lists sessions filtered by user, address and client kind', async () => {
    const { username, id } = await freshUser();
    await signInFrom(t.app, username, CHROME_WINDOWS, 'web');
    await signInFrom(t.app, username, 'tianji-cli/1.0', 'cli');
    const all = (await admin('GET', `/api/sessions?userId=${id}`)).json().data;
    expect(all.total).toBe(2);
    expect(all.items.map((s: { username: string }) => s.username)).toEqual([username, username]);
    const cli = (await admin('GET', `/api/sessions?userId=${id}&clientKind=cli`)).json().data;
    expect(cli.items.map((s: { deviceLabel: string }) => s.deviceLabel)).toEqual(['tianji-cli/1.0']);
    expect((await admin('GET', `/api/sessions?userId=${id}&ip=127.`)).json().data.total).toBe(2);
    expect((await admin('GET', `/api/sessions?userId=${id}&ip=10.`)).json().data.total).toBe(0);
    const bad = await admin('GET', '/api/sessions?clientKind=toaster');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/clientKind/);
  });

  it('an operator ends one session, or several at once; each device is told 此设备已被管理员下线, and it is audited', async () => {
    const { username, id } = await freshUser();
    const s1 = await signInFrom(t.app, username, CHROME_WINDOWS, 'web');
    const s2 = await signInFrom(t.app, username, SAFARI_IPHONE, 'mobile');
    const s3 = await signInFrom(t.app, username, 'tianji-cli/1.0', 'cli');
    const ids = (await admin('GET', `/api/sessions?userId=${id}`))
      .json()
      .data.items.map((s: { id: string; clientKind: string }) => [s.clientKind, s.id]);
    const byKind = Object.fromEntries(ids);
    expect((await admin('DELETE', `/api/sessions/${byKind.web}`)).statusCode).toBe(204);
    expectUnauthorized(await me(t.app, s1.accessToken), /^此设备已被管理员下线，请重新登录/, 'SESSION_REVOKED');
    expect((await me(t.app, s2.accessToken)).statusCode).toBe(200);
    const batch = await admin('POST', '/api/sessions/batch-delete', { ids: [byKind.mobile, byKind.cli, byKind.web] });
    expect(batch.json()).toEqual({ data: { deleted: 2 } });
    expectUnauthorized(await me(t.app, s2.accessToken), /^此设备已被管理员下线/, 'SESSION_REVOKED');
    expectUnauthorized(await refresh(t.app, s3.refreshToken), /^此设备已被管理员下线.*revoked/, 'SESSION_REVOKED');
    expect((await admin('DELETE', `/api/sessions/${byKind.web}`)).statusCode).toBe(404);
    const audit = (await admin('GET', '/api/audit-logs?keyword=session'))
      .json()
      .data.items.map((e: { action: string }) => e.action);
    expect(audit).toEqual(expect.arrayContaining(['session.delete', 'session.batch-delete']));
  });

  it('force-logout ends every device of the user with FORCED_LOGOUT', async () => {
    const { username, id } = await freshUser();
    const s1 = await signInFrom(t.app, username, CHROME_WINDOWS, 'web');
    const s2 = await signInFrom(t.app, username, SAFARI_IPHONE, 'mobile');
    const res = await admin('POST', `/api/users/${id}/force-logout`);
    expect(res.json()).toEqual({ data: { ended: 2 } });
    for (const s of [s1, s2]) {
      expectUnauthorized(await me(t.app, s.accessToken), /强制下线/, 'FORCED_LOGOUT');
      expectUnauthorized(await refresh(t.app, s.refreshToken), /强制下线/, 'FORCED_LOGOUT');
    }
    // Signing in again works and starts a fresh session.
    const again = await signInFrom(t.app, username, CHROME_WINDOWS, 'web');
    expect((await me(t.app, again.accessToken)).statusCode).toBe(200);
    expect((await admin('POST', '/api/users/00000000-0000-4000-8000-000000000000/force-logout')).statusCode).toBe(404);
  });

  it('a delegated operator sees why a super administrator’s sessions are not its to end, and is refused in Chinese', async () => {
    const op = await userWithGrants(t.app, admin, `op${++n}`, {
      'system:session': bitsOf(['SEARCH', 'DELETE', 'BATCH_DELETE']),
    });
    const boss = await signInFrom(t.app, ADMIN.username, CHROME_WINDOWS, 'web', ADMIN.password);
    const { username, id } = await freshUser();
    const member = await signInFrom(t.app, username, CHROME_WINDOWS, 'web');
    const [bossSession] = (await op.call('GET', `/api/sessions?keyword=${ADMIN.username}&clientKind=web`)).json().data
      .items;
    const [memberSession] = (await op.call('GET', `/api/sessions?userId=${id}`)).json().data.items;
    // The list says why before anyone confirms anything: the same sentence the refusal carries.
    const reason = `用户「${ADMIN.username}」拥有你没有的权限（超级管理员的全部权限），你不能结束该用户的会话`;
    expect(bossSession.deniedReason).toBe(reason);
    expect(memberSession).not.toHaveProperty('deniedReason');
    // A super administrator may end anyone's: no reason on any row.
    const all = (await admin('GET', '/api/sessions?pageSize=100')).json().data.items as Array<object>;
    expect(all.filter((s) => 'deniedReason' in s)).toEqual([]);

    const refused = await op.call('DELETE', `/api/sessions/${bossSession.id}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ code: 'PRIVILEGE_ESCALATION', message: reason });
    // All or nothing: a batch holding the super administrator's session ends none.
    const batch = await op.call('POST', '/api/sessions/batch-delete', { ids: [memberSession.id, bossSession.id] });
    expect(batch.statusCode).toBe(403);
    expect(batch.json().message).toBe(reason);
    expect((await me(t.app, member.accessToken)).statusCode).toBe(200);
    const forced = await op.call('POST', `/api/users/${(await login(t.app)).user.id}/force-logout`);
    expect(forced.statusCode).toBe(403);
    expect(forced.json().message).toBe(reason.replace('结束该用户的会话', '强制该用户下线'));
    expect((await me(t.app, boss.accessToken)).statusCode).toBe(200);
    expect((await op.call('DELETE', `/api/sessions/${memberSession.id}`)).statusCode).toBe(204);
    expectUnauthorized(await me(t.app, member.accessToken), /此设备已被管理员下线/, 'SESSION_REVOKED');
  });

  it('the operator routes need the system:session grant', async () => {
    const reader = await userWithGrants(t.app, admin, `reader${++n}`, { 'system:session': bitsOf(['SEARCH']) });
    expect((await reader.call('GET', '/api/sessions')).statusCode).toBe(200);
    const { id } = await freshUser();
    expect((await reader.call('POST', `/api/users/${id}/force-logout`)).statusCode).toBe(403);
    expect((await reader.call('POST', '/api/sessions/batch-delete', { ids: [id] })).statusCode).toBe(403);
  });
});
