import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, type FakeServer } from '../test/fake-server.js';
import { crossContextCoordinator, type LockManagerLike } from './coordinator.js';
import { SessionEndedError } from './errors.js';
import { createSession, type SessionOptions, type TianjiSession } from './session.js';
import { localStorageAdapter, memoryStorage, type WebStorageLike } from './storage.js';

const open: TianjiSession[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

function session(server: FakeServer, extra: Partial<SessionOptions> = {}) {
  const s = createSession({
    baseUrl: 'http://tianji.test',
    fetch: server.fetch,
    now: () => server.clock.now,
    storage: memoryStorage(),
    ...extra,
  });
  open.push(s);
  return s;
}

const list = (s: TianjiSession) => s.api.GET('/api/users', { params: { query: { page: 1, pageSize: 20 } } });

describe('TianjiSession (against a stand-in server)', () => {
  it('signs in, keeps the refresh token in storage and loads the menus', async () => {
    const server = fakeServer();
    const storage = memoryStorage();
    const s = session(server, { storage });
    const me = await s.login('alice', 'pw');
    expect(me.username).toBe('alice');
    expect(storage.load()).toMatch(/^r\./);
    expect(s.can('system:user', 'SEARCH')).toBe(true);
    expect(s.can('system:user', 'SEARCH', 'EDIT')).toBe(true);
    expect(s.can('system:user', 'DELETE')).toBe(false);
    expect(s.can('system')).toBe(true);
    expect(s.can('system', 'SEARCH')).toBe(false);
    expect(s.visibleMenus().map((m) => m.code)).toEqual(['system']);
  });

  it('refreshes before the access token expires instead of collecting a 401', async () => {
    const server = fakeServer(60);
    const s = session(server);
    await s.login('alice', 'pw');
    server.clock.now += 55_000; // inside the leeway (a fifth of 60 s, capped at 30 s)
    const { response } = await list(s);
    expect(response.status).toBe(200);
    expect(server.refreshes).toBe(1);
    expect(server.rejected).toBe(0);
  });

  it('ten concurrent requests with an expired token share one refresh', async () => {
    const server = fakeServer(60);
    const s = session(server);
    await s.login('alice', 'pw');
    server.clock.now += 120_000;
    const results = await Promise.all(Array.from({ length: 10 }, () => list(s)));
    expect(results.map((r) => r.response.status)).toEqual(Array(10).fill(200));
    expect(server.refreshes).toBe(1);
  });

  it('ten concurrent 401s (token rejected before its expiry) share one refresh and are retried', async () => {
    const server = fakeServer(600);
    const s = session(server);
    await s.login('alice', 'pw');
    server.rejectIssuedAccessTokens();
    const results = await Promise.all(Array.from({ length: 10 }, () => list(s)));
    expect(results.map((r) => r.response.status)).toEqual(Array(10).fill(200));
    expect(server.refreshes).toBe(1);
    expect(server.rejected).toBe(10);
  });

  it('a failed refresh clears the session, tells the app once, and rejects the request', async () => {
    const server = fakeServer(60);
    const storage = memoryStorage();
    const onSignedOut = vi.fn();
    const s = session(server, { storage, onSignedOut });
    await s.login('alice', 'pw');
    server.revokeAll();
    server.clock.now += 120_000;
    const calls = await Promise.allSettled([list(s), list(s), list(s)]);
    expect(calls.every((c) => c.status === 'rejected' && c.reason instanceof SessionEndedError)).toBe(true);
    expect(onSignedOut).toHaveBeenCalledTimes(1);
    // With the server's {code, message}, so the app can say why.
    expect(onSignedOut).toHaveBeenCalledWith('refresh-failed', { code: 'UNAUTHORIZED', message: expect.any(String) });
    expect(storage.load()).toBeNull();
    expect(s.signedIn).toBe(false);
    expect(s.can('system:user')).toBe(false);
  });

  it('a request rejected while its own password change is under way gets the new pair, not a sign-out', async () => {
    const server = fakeServer(600);
    const onSignedOut = vi.fn();
    const s = session(server, { onSignedOut });
    await s.login('alice', 'pw');
    let answer = () => {};
    server.passwordAnswerDelay = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const change = s.changePassword('pw', 'new-password-7');
    // Saved on the server (the old pair has ended), its answer not yet here: a request sent now is rejected.
    await vi.waitFor(() => expect(server.passwordChanges).toBe(1));
    const inFlight = list(s);
    await vi.waitFor(() => expect(server.rejected).toBe(1));
    answer();
    await change;
    expect((await inFlight).response.status).toBe(200);
    expect(server.refreshes).toBe(0);
    expect(onSignedOut).not.toHaveBeenCalled();
    expect(s.signedIn).toBe(true);
  });

  it('a refresh that fails because the server is down keeps the session', async () => {
    const server = fakeServer(60);
    const onSignedOut = vi.fn();
    const s = session(server, { onSignedOut });
    await s.login('alice', 'pw');
    server.clock.now += 120_000;
    server.refreshDown = true;
    await expect(list(s)).rejects.toMatchObject({ status: 503 });
    expect(s.signedIn).toBe(true);
    server.refreshDown = false;
    expect((await list(s)).response.status).toBe(200);
    expect(onSignedOut).not.toHaveBeenCalled();
  });

  it('restores a stored session', async () => {
    const server = fakeServer();
    const storage = memoryStorage();
    await session(server, { storage }).login('alice', 'pw');
    const again = session(server, { storage });
    expect((await again.restore())?.username).toBe('alice');
    expect(session(server).signedIn).toBe(false);
    expect(await session(server).restore()).toBeNull();
  });

  it('a 403 tells the app and reloads the menus', async () => {
    const server = fakeServer();
    const onForbidden = vi.fn();
    const s = session(server, { onForbidden });
    await s.login('alice', 'pw');
    server.menus = [];
    const { response, error } = await s.api.GET('/api/roles', { params: { query: { page: 1, pageSize: 20 } } });
    expect(response.status).toBe(403);
    expect(error).toEqual({ code: 'FORBIDDEN', message: '无权限' });
    expect(onForbidden).toHaveBeenCalledWith(expect.objectContaining({ status: 403, message: '无权限' }));
    await vi.waitFor(() => expect(s.visibleMenus()).toEqual([]));
  });

  it('logout forgets the session and says so', async () => {
    const server = fakeServer();
    const storage = memoryStorage();
    const onSignedOut = vi.fn();
    const s = session(server, { storage, onSignedOut });
    await s.login('alice', 'pw');
    await s.logout();
    expect(storage.load()).toBeNull();
    expect(onSignedOut).toHaveBeenCalledWith('logout');
    await expect(list(s)).rejects.toBeInstanceOf(SessionEndedError);
  });
});

/** Web Locks for one Node process: exclusive per name, like navigator.locks. */
function sharedLocks(): LockManagerLike {
  const tails = new Map<string, Promise<unknown>>();
  return {
    request: (name, cb) => {
      const run = (tails.get(name) ?? Promise.resolve()).then(cb, cb);
      tails.set(
        name,
        run.catch(() => undefined),
      );
      return run;
    },
  };
}

function webStorage(): WebStorageLike {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v), removeItem: (k) => void m.delete(k) };
}

describe('TianjiSession across tabs sharing localStorage', () => {
  const tabs = (
    server: FakeServer,
    n: number,
    apis: { locks?: LockManagerLike; BroadcastChannel?: typeof BroadcastChannel },
  ) => {
    const store = webStorage();
    const key = `k${Math.random()}`;
    return Array.from({ length: n }, () =>
      session(server, {
        storage: localStorageAdapter(key, store),
        coordinator: crossContextCoordinator(key, apis),
        handoverWaitMs: 500,
      }),
    );
  };

  it('two tabs whose tokens expire at once refresh once; the other tab gets the token over the channel', async () => {
    const server = fakeServer(60);
    const [a, b] = tabs(server, 2, { locks: sharedLocks(), BroadcastChannel });
    await a.login('alice', 'pw');
    await vi.waitFor(() => expect(b.user?.username).toBe('alice')); // signed in in tab a: tab b follows
    server.clock.now += 120_000;
    const [ra, rb] = await Promise.all([list(a), list(b)]);
    expect([ra.response.status, rb.response.status]).toEqual([200, 200]);
    expect(server.refreshes).toBe(1);
  });

  it('when the hand-over message does not come, the waiting tab refreshes with the rotated token (never the voided one)', async () => {
    const server = fakeServer(60);
    const [a, b] = tabs(server, 2, { locks: sharedLocks(), BroadcastChannel: undefined });
    await a.login('alice', 'pw');
    await b.restore();
    const before = server.refreshes;
    server.clock.now += 120_000;
    const [ra, rb] = await Promise.all([list(a), list(b)]);
    expect([ra.response.status, rb.response.status]).toEqual([200, 200]);
    expect(server.refreshes - before).toBe(2);
  });

  it('signing out in one tab signs the others out', async () => {
    const server = fakeServer(60);
    const [a, b] = tabs(server, 2, { locks: sharedLocks(), BroadcastChannel });
    const onSignedOut = vi.fn();
    (b as unknown as { opts: SessionOptions }).opts.onSignedOut = onSignedOut;
    await a.login('alice', 'pw');
    await vi.waitFor(() => expect(b.signedIn).toBe(true));
    await a.logout();
    await vi.waitFor(() => expect(onSignedOut).toHaveBeenCalledWith('other-tab'));
    expect(b.signedIn).toBe(false);
  });
});

describe('completeDeviceLogin (against a stand-in server)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Answers the device polls from `script` in turn (the last one a sign-in), recording when each came. */
  function deviceServer(script: Array<'AUTHORIZATION_PENDING' | 'SLOW_DOWN' | 'ACCESS_DENIED' | 'ok'>) {
    const server = fakeServer();
    const polls: number[] = [];
    const fetch = async (req: Request) => {
      if (new URL(req.url).pathname !== '/api/auth/device/token') return server.fetch(req);
      polls.push(Date.now());
      const next = script.shift();
      if (next === 'ok')
        return server.fetch(new Request('http://tianji.test/api/auth/login', { method: 'POST', body: '{}' }));
      return Response.json({ code: next, message: `${next} 的中文说明` }, { status: 400 });
    };
    return { server, polls, fetch };
  }

  it('polls at the interval, five seconds slower after each SLOW_DOWN, then holds the session', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const began = Date.now();
    const { server, polls, fetch } = deviceServer([
      'AUTHORIZATION_PENDING',
      'SLOW_DOWN',
      'AUTHORIZATION_PENDING',
      'ok',
    ]);
    server.clock.now = began;
    const s = session(server, { fetch });
    let pending = 0;
    const done = s.completeDeviceLogin({ deviceCode: 'd', interval: 5 }, { onPending: () => pending++ });
    await vi.advanceTimersByTimeAsync(60_000);
    const me = await done;
    expect(polls.map((t) => (t - began) / 1000)).toEqual([5, 10, 20, 30]);
    expect(pending).toBe(2);
    expect(me.username).toBe('alice');
    expect(s.signedIn).toBe(true);
  });

  it('a refusal is a DeviceLoginError carrying the server’s message; the session stays signed out', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { server, fetch } = deviceServer(['ACCESS_DENIED']);
    const s = session(server, { fetch });
    const done = s.completeDeviceLogin({ deviceCode: 'd', interval: 5 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await done).toMatchObject({
      name: 'DeviceLoginError',
      refusal: 'ACCESS_DENIED',
      message: 'ACCESS_DENIED 的中文说明',
    });
    expect(s.signedIn).toBe(false);
  });
});
