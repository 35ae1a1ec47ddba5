/**
 * Device sign-in through the SDK against a real server (RFC 8628, issue 53): startDeviceLogin gives the code and an
 * absolute link, completeDeviceLogin waits through the pending polls and then holds the session as login() does; a
 * refusal or an expired code is a DeviceLoginError with the server's Chinese sentence, an abort stops the wait.
 * Each poll waits the server's 5 s interval, so these tests take that long.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, getTestInstance, type TestInstance } from '../../server/test/helpers.js';
import { insertUser, signIn } from '../../server/test/auth-fixtures.js';
import { ApiError, DeviceLoginError, createSession } from '../src/index.js';

describe('device sign-in (SDK)', () => {
  let t: TestInstance;
  let baseUrl: string;
  let n = 0;
  beforeAll(async () => {
    t = await getTestInstance('sqlite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t?.close());

  /** A signed-in approver (as the browser side would be). */
  async function approver() {
    const username = `sdk_device${++n}`;
    await insertUser(t.db, username);
    return { username, ...(await signIn(t.app, username)) };
  }
  const decide = (token: string, userCode: string, verdict: 'approve' | 'deny') =>
    t.app.inject({ method: 'POST', url: `/api/auth/device/requests/${userCode}/${verdict}`, headers: bearer(token) });

  it('waits while pending, then signs in as the approver: tokens held as after login(), client kind sdk', async () => {
    const who = await approver();
    const session = createSession({ baseUrl });
    const start = await session.startDeviceLogin({ clientName: 'SDK 测试', username: who.username });
    expect(start.userCode).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(start.verificationUri).toBe(`${baseUrl}/device`);
    expect(start.verificationUriComplete).toBe(`${baseUrl}/device?code=${start.userCode}`);
    let pending = 0;
    const me = await session.completeDeviceLogin(start, {
      // The first poll finds it pending; the person approves only then.
      onPending: () => {
        if (++pending === 1) void decide(who.accessToken, start.userCode, 'approve');
      },
    });
    expect(pending).toBe(1);
    expect(me.username).toBe(who.username);
    expect(session.signedIn).toBe(true);
    expect(session.user?.username).toBe(who.username);
    const { data } = await session.api.GET('/api/auth/sessions');
    expect(data?.data.find((s) => s.current)).toMatchObject({ clientKind: 'sdk' });
    session.close();
  });

  it('refused in the browser: DeviceLoginError ACCESS_DENIED with 登录请求已被拒绝, and no session', async () => {
    const who = await approver();
    const session = createSession({ baseUrl });
    const start = await session.startDeviceLogin();
    expect((await decide(who.accessToken, start.userCode, 'deny')).statusCode).toBe(204);
    const refused = await session.completeDeviceLogin(start).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DeviceLoginError);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ refusal: 'ACCESS_DENIED', code: 'ACCESS_DENIED', status: 400 });
    expect((refused as Error).message).toMatch(/^登录请求已被拒绝/);
    expect(session.signedIn).toBe(false);
    session.close();
  });

  it('an expired code: DeviceLoginError EXPIRED_TOKEN that says to start again', async () => {
    const session = createSession({ baseUrl });
    const start = await session.startDeviceLogin();
    await t.db.kysely
      .updateTable('device_authorizations')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    const refused = await session.completeDeviceLogin(start).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DeviceLoginError);
    expect(refused).toMatchObject({ refusal: 'EXPIRED_TOKEN' });
    expect((refused as Error).message).toMatch(/^授权码已过期，请重新运行 tianji login --web/);
    session.close();
  });

  it('an abort ends the wait at once with the signal’s reason, before any poll', async () => {
    const polls: string[] = [];
    const session = createSession({
      baseUrl,
      fetch: (req) => {
        polls.push(new URL(req.url).pathname);
        return fetch(req);
      },
    });
    const start = await session.startDeviceLogin();
    const controller = new AbortController();
    const began = Date.now();
    setTimeout(() => controller.abort(new Error('用户取消')), 50);
    await expect(session.completeDeviceLogin(start, { signal: controller.signal })).rejects.toThrow('用户取消');
    expect(Date.now() - began).toBeLessThan(2000);
    expect(polls).toEqual(['/api/auth/device/code']);
    session.close();
  });
});
