/**
 * The session behaviour every client built on @tianji/client must show, against a real tianji server
 * (buildApp on in-memory SQLite, listening on 127.0.0.1, access tokens living 2 s; the tests move the clock past
 * that instead of waiting). The same suite runs for each
 * client in CLIENTS; the browser client runs the same scenarios in Chromium (apps/admin/test/e2e.test.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN, getTestInstance, type TestInstance } from '../../server/test/helpers.js';
import {
  ApiError,
  SessionEndedError,
  createSession,
  fileStorage,
  memoryStorage,
  type TianjiSession,
  type TokenStorage,
} from '../src/node.js';

const TTL_MS = 2000;
/**
 * Lets `ms` pass on this process's clock without waiting: the server and the client run here and share Date, so the
 * server's token checks see the time pass too. Timers stay real, and the clock keeps running from there.
 */
function passTime(ms: number) {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.advanceTimersByTime(ms);
}
const tmpFile = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tianji-session-')), 'refresh-token');

const CLIENTS: Array<{ name: string; storage: () => TokenStorage }> = [
  { name: 'Node client, memory storage', storage: () => memoryStorage() },
  { name: 'Node client, file storage', storage: () => fileStorage(tmpFile()) },
];

describe.each(CLIENTS)('session behaviour: $name', ({ storage: makeStorage }) => {
  let t: TestInstance;
  let baseUrl: string;

  beforeAll(async () => {
    t = await getTestInstance('sqlite', { ACCESS_TOKEN_TTL: `${TTL_MS / 1000}s` });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t?.close());
  afterEach(() => vi.useRealTimers());

  /** A client whose transport counts refreshes and 401s, with a clock the test may shift or stop. */
  function client(opts: { storage?: TokenStorage } = {}) {
    const seen = { refresh: 0, unauthorized: 0 };
    const clock = { offset: 0, frozenAt: undefined as number | undefined };
    const onSignedOut = vi.fn();
    const onForbidden = vi.fn();
    const storage = opts.storage ?? makeStorage();
    const session = createSession({
      baseUrl,
      storage,
      onSignedOut,
      onForbidden,
      now: () => clock.frozenAt ?? Date.now() + clock.offset,
      fetch: async (req) => {
        const isRefresh = req.url.endsWith('/api/auth/refresh');
        if (isRefresh) seen.refresh++;
        const res = await fetch(req);
        if (res.status === 401 && !isRefresh) seen.unauthorized++;
        return res;
      },
    });
    return { session, seen, clock, onSignedOut, onForbidden, storage };
  }

  const users = (s: TianjiSession) => s.api.GET('/api/users', { params: { query: { page: 1, pageSize: 20 } } });
  const raw = (p: string, init: RequestInit & { token?: string } = {}) =>
    fetch(baseUrl + p, {
      ...init,
      headers: { 'content-type': 'application/json', ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
    });

  async function createUser(username: string, password: string, roleIds: string[] = []) {
    const admin = createSession({ baseUrl });
    await admin.login(ADMIN.username, ADMIN.password);
    const { response } = await admin.api.POST('/api/users', { body: { username, password, roleIds } });
    expect(response.status).toBe(201);
    // As if the user had already replaced the operator's password (the server's must-change-password suite covers it).
    await t.db.kysely.updateTable('users').set({ must_change_password: 0 }).where('username', '=', username).execute();
    return admin;
  }

  it('signs in and reads the super administrator’s all-ones mask exactly', async () => {
    const { session } = client();
    const me = await session.login(ADMIN.username, ADMIN.password);
    expect(me.username).toBe(ADMIN.username);
    expect(
      session.can(
        'system:user',
        'SEARCH',
        'ADD',
        'EDIT',
        'DELETE',
        'BATCH_DELETE',
        'RESET_PASSWORD',
        'GRANT',
        'EXPORT',
      ),
    ).toBe(true);
    expect(session.canCall('DELETE /api/menus/{id}')).toBe(true);
    expect(session.visibleMenus().map((m) => m.code)).toEqual(expect.arrayContaining(['system', 'content', 'monitor']));
    expect((await users(session)).response.status).toBe(200);
  });

  it('an expired access token is refreshed before the request is sent, once', async () => {
    const { session, seen } = client();
    await session.login(ADMIN.username, ADMIN.password);
    const old = await session.accessToken();
    passTime(TTL_MS + 200);
    expect((await raw('/api/auth/me', { token: old })).status).toBe(401); // the server really rejects it now
    const results = await Promise.all([users(session), users(session), session.me()]);
    expect(results[0].response.status).toBe(200);
    expect(results[1].response.status).toBe(200);
    expect(seen.refresh).toBe(1);
    expect(seen.unauthorized).toBe(0);
  });

  it('concurrent 401s share one refresh and every request is retried and succeeds', async () => {
    const { session, seen, clock } = client();
    await session.login(ADMIN.username, ADMIN.password);
    clock.frozenAt = Date.now(); // the client believes its token is fresh; the server will not
    passTime(TTL_MS + 200);
    const results = await Promise.all(Array.from({ length: 8 }, () => users(session)));
    expect(results.map((r) => r.response.status)).toEqual(Array(8).fill(200));
    expect(seen.unauthorized).toBe(8);
    expect(seen.refresh).toBe(1);
  });

  it('a failed refresh clears the session and tells the app to sign in again', async () => {
    const { session, clock, onSignedOut, storage } = client();
    await session.login(ADMIN.username, ADMIN.password);
    // Someone else uses the stored refresh token first: the server voids it (and, on replay, its whole family).
    const stolen = await storage.load();
    expect(
      (await raw('/api/auth/refresh', { method: 'POST', body: JSON.stringify({ refreshToken: stolen }) })).status,
    ).toBe(200);
    clock.offset = TTL_MS * 2; // due for a refresh
    const calls = await Promise.allSettled([users(session), users(session)]);
    expect(calls.map((c) => c.status)).toEqual(['rejected', 'rejected']);
    expect((calls[0] as PromiseRejectedResult).reason).toBeInstanceOf(SessionEndedError);
    expect(onSignedOut).toHaveBeenCalledTimes(1);
    // The server says why: the token was just used by someone else (within the grace window of its rotation).
    expect(onSignedOut).toHaveBeenCalledWith('refresh-failed', {
      code: 'REFRESH_SUPERSEDED',
      message: expect.stringMatching(/并发/),
    });
    expect(session.signedIn).toBe(false);
    expect(await storage.load()).toBeNull();
  });

  it('logout revokes the refresh token; the access token lives on until its own expiry', async () => {
    const { session, onSignedOut, storage } = client();
    await session.login(ADMIN.username, ADMIN.password);
    const refreshToken = await storage.load();
    const accessToken = await session.accessToken();
    await session.logout();
    expect(onSignedOut).toHaveBeenCalledWith('logout');
    expect(await storage.load()).toBeNull();
    expect((await raw('/api/auth/refresh', { method: 'POST', body: JSON.stringify({ refreshToken }) })).status).toBe(
      401,
    );
    expect((await raw('/api/auth/me', { token: accessToken })).status).toBe(200);
    await expect(users(session)).rejects.toBeInstanceOf(SessionEndedError);
  });

  it('a password change on another device signs this one out at its next request', async () => {
    const username = `pw-${Math.random().toString(36).slice(2, 8)}`;
    await createUser(username, 'first-password-1');
    const here = client();
    const there = client();
    await here.session.login(username, 'first-password-1');
    await there.session.login(username, 'first-password-1');
    await there.session.changePassword('first-password-1', 'second-password-2');
    expect((await there.session.me()).username).toBe(username); // the device that changed it carries on

    await expect(users(here.session)).rejects.toBeInstanceOf(SessionEndedError);
    expect(here.onSignedOut).toHaveBeenCalledWith('refresh-failed', {
      code: 'PASSWORD_CHANGED',
      message: expect.stringMatching(/^密码已修改/),
    });
    expect(here.session.signedIn).toBe(false);
    expect(there.onSignedOut).not.toHaveBeenCalled();
    await expect(here.session.login(username, 'first-password-1')).rejects.toMatchObject({
      status: 401,
      code: 'UNAUTHORIZED',
    });
    expect((await here.session.login(username, 'second-password-2')).username).toBe(username);
  });

  it('a watching client leaves at once when an operator forces it out, with the server’s reason', async () => {
    const username = `ev-${Math.random().toString(36).slice(2, 8)}`;
    const admin = await createUser(username, 'event-password-1');
    const { session, onSignedOut, storage } = client();
    await session.login(username, 'event-password-1');
    session.watchEvents();
    const { data } = await admin.api.GET('/api/users', {
      params: { query: { page: 1, pageSize: 20, keyword: username } },
    });
    const id = data!.data.items[0].id;
    // The stream may still be connecting: force out until the notice arrives (each call ends the sessions live then).
    await vi.waitFor(async () => {
      await admin.api.POST('/api/users/{id}/force-logout', { params: { path: { id } } });
      expect(onSignedOut).toHaveBeenCalled();
    });
    expect(onSignedOut).toHaveBeenCalledTimes(1);
    expect(onSignedOut).toHaveBeenCalledWith('session-ended', {
      code: 'FORCED_LOGOUT',
      message: '你已被管理员强制下线，请重新登录',
    });
    expect(session.signedIn).toBe(false);
    expect(await storage.load()).toBeNull();
  });

  it('a stored session is resumed by a new client on the same storage (a restart)', async () => {
    const first = client();
    await first.session.login(ADMIN.username, ADMIN.password);
    first.session.close();
    const second = client({ storage: first.storage });
    expect((await second.session.restore())?.username).toBe(ADMIN.username);
    expect((await users(second.session)).response.status).toBe(200);
  });

  it('can() and visibleMenus() follow the grants; the server still decides', async () => {
    const admin = createSession({ baseUrl });
    await admin.login(ADMIN.username, ADMIN.password);
    const menus = (await admin.api.GET('/api/menus')).data!.data;
    const idOf = (code: string) => menus.flatMap((m) => [m, ...m.children]).find((m) => m.code === code)!.id;
    const code = `viewer_${Math.random().toString(36).slice(2, 8)}`;
    const role = (await admin.api.POST('/api/roles', { body: { code, name: code } })).data!.data;
    const grants = [
      { menuId: idOf('system:user'), bits: 1 },
      { menuId: idOf('system:role'), bits: 0 },
    ];
    expect(
      (await admin.api.PUT('/api/roles/{id}/menus', { params: { path: { id: role.id } }, body: { grants } })).response
        .status,
    ).toBe(200);
    const username = `viewer-${Math.random().toString(36).slice(2, 8)}`;
    await createUser(username, 'viewer-password-1', [role.id]);

    const { session, onForbidden } = client();
    await session.login(username, 'viewer-password-1');
    expect(session.visibleMenus().map((m) => [m.code, m.children.map((c) => c.code)])).toEqual([
      ['system', ['system:user', 'system:role']],
    ]);
    expect(session.can('system:user', 'SEARCH')).toBe(true);
    expect(session.can('system:user', 'ADD')).toBe(false);
    expect(session.can('system:role')).toBe(true); // granted with bits 0: visible, no action
    expect(session.can('system:role', 'SEARCH')).toBe(false);
    expect(session.canCall('GET /api/users')).toBe(true);
    expect(session.canCall('POST /api/users')).toBe(false);
    expect((await users(session)).response.status).toBe(200);
    const denied = await session.api.POST('/api/users', { body: { username: 'nope-user', password: 'whatever-123' } });
    expect(denied.response.status).toBe(403);
    expect(denied.error).toEqual({ code: 'FORBIDDEN', message: '无权限' });
    expect(onForbidden.mock.calls[0][0]).toBeInstanceOf(ApiError);

    // A grant added while signed in shows after the menus are reloaded.
    grants[0].bits = 1 + 2;
    await admin.api.PUT('/api/roles/{id}/menus', { params: { path: { id: role.id } }, body: { grants } });
    await session.me();
    expect(session.can('system:user', 'ADD')).toBe(true);
  });
});
