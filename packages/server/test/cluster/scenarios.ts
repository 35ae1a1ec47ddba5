import {
  ADMIN,
  RATE_LIMIT_MAX,
  type Tally,
  countLostWrites,
  randomIp,
  signIn,
  startLoad,
  type Cluster,
} from './harness.js';
import { waitForStatus } from './instance.js';
import { sleep, waitFor } from './services.js';

/**
 * The cluster scenarios, run in order against one cluster (three instances behind the proxy, on the throwaway
 * PostgreSQL and Redis). Each is a name and a function; adding one is a few lines.
 */
export interface Scenario {
  name: string;
  run(c: Cluster, t: Tally): Promise<void>;
}

const at = (c: Cluster, i: number) => c.instances[i].url;

/** The per-minute quota of the keyed scenario's key. */
const KEY_PER_MINUTE = 40;

/** A user without roles, created by the admin: enough to hold a session. */
async function createUser(c: Cluster, t: Tally, adminToken: string) {
  const username = `u${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const password = 'cluster-user-password';
  const res = await t.call(c.proxy, 'POST', '/api/users', { token: adminToken, body: { username, password } });
  if (res.status !== 201 && res.status !== 200)
    throw new Error(`creating a user failed: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
  return { id: res.body.data.id as string, username, password };
}

/** 401 with a message saying why: what every instance must answer for an ended session. */
function expect401(t: Tally, res: { status: number; body: { message?: string } }, where: string) {
  t.expect(
    res.status === 401 && typeof res.body?.message === 'string' && res.body.message.length > 0,
    `${where}: expected 401 with a reason, got ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`,
  );
}

/** The id of the session a sign-in made (its own sessions list marks it `current`). */
async function sessionIdOf(t: Tally, base: string, accessToken: string): Promise<string> {
  const res = await t.call(base, 'GET', '/api/auth/sessions', { token: accessToken });
  const current = (res.body?.data as Array<{ id: string; current: boolean }> | undefined)?.find((s) => s.current);
  if (!current) throw new Error(`no current session in ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
  return current.id;
}

/** 401 whose code names the reason (SESSION_ENDED, FORCED_LOGOUT …), on whichever instance answers. */
function expectReason(t: Tally, res: { status: number; body: { code?: string } }, code: string, where: string) {
  t.expect(
    res.status === 401 && res.body?.code === code,
    `${where}: expected 401 ${code}, got ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`,
  );
}

/** Opens the events stream of a session on one instance and resolves with the first `session-ended` notice. */
function nextSessionEnded(
  base: string,
  accessToken: string,
  timeoutMs = 5_000,
): { connected: Promise<void>; notice: Promise<{ reason: string; ms: number }> } {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  let connected!: () => void;
  const ready = new Promise<void>((r) => (connected = r));
  const notice = (async () => {
    const res = await fetch(`${base}/api/auth/events`, {
      headers: { authorization: `Bearer ${accessToken}` },
      signal: abort.signal,
    });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the events stream closed without a session-ended notice');
      text += decoder.decode(value, { stream: true });
      if (text.includes(': connected')) connected();
      const m = /event: session-ended\ndata: (.*)\n/.exec(text);
      if (m) {
        abort.abort();
        return { reason: (JSON.parse(m[1]) as { reason: string }).reason, ms: Date.now() };
      }
    }
  })().finally(() => clearTimeout(timer));
  return { connected: ready, notice };
}

export const SCENARIOS: Scenario[] = [
  {
    name: 'session ended on C: 401 SESSION_REVOKED on A and B; the other session lives',
    async run(c, t) {
      const admin = await signIn(t, at(c, 0));
      const u = await createUser(c, t, admin.accessToken);
      const one = await signIn(t, at(c, 0), u.username, u.password);
      const two = await signIn(t, at(c, 1), u.username, u.password);
      const refreshed = await t.call(at(c, 1), 'POST', '/api/auth/refresh', {
        body: { refreshToken: one.refreshToken },
      });
      t.expect(refreshed.status === 200, `refresh on B: ${refreshed.status}`);
      const token = refreshed.body.data.accessToken as string;
      const id = await sessionIdOf(t, at(c, 1), token);
      const end = await t.call(at(c, 2), 'DELETE', `/api/sessions/${id}`, { token: admin.accessToken });
      t.expect(end.status >= 200 && end.status < 300, `end on C: ${end.status}`);
      expectReason(t, await t.call(at(c, 0), 'GET', '/api/auth/me', { token }), 'SESSION_REVOKED', 'access token on A');
      expectReason(t, await t.call(at(c, 1), 'GET', '/api/auth/me', { token }), 'SESSION_REVOKED', 'access token on B');
      expect401(
        t,
        await t.call(at(c, 0), 'POST', '/api/auth/refresh', {
          body: { refreshToken: refreshed.body.data.refreshToken },
        }),
        'refresh on A',
      );
      const other = await t.call(at(c, 2), 'GET', '/api/auth/me', { token: two.accessToken });
      t.expect(other.status === 200, `the other session on C: ${other.status}`);
    },
  },
  {
    name: 'forced sign-out on C: 401 FORCED_LOGOUT on A and B; the events stream on A hears it',
    async run(c, t) {
      const admin = await signIn(t, at(c, 0));
      const u = await createUser(c, t, admin.accessToken);
      const s = await signIn(t, at(c, 0), u.username, u.password);
      const stream = nextSessionEnded(at(c, 0), s.accessToken);
      await stream.connected;
      const sent = Date.now();
      const out = await t.call(at(c, 2), 'POST', `/api/users/${u.id}/force-logout`, { token: admin.accessToken });
      t.expect(out.status >= 200 && out.status < 300, `force-logout on C: ${out.status}`);
      const heard = await stream.notice.catch((e: Error) => ({ reason: `none (${e.message})`, ms: NaN }));
      t.note(`events stream on A: ${heard.reason} after ${heard.ms - sent} ms`);
      t.expect(
        heard.reason === 'FORCED_LOGOUT' && heard.ms - sent < 1_000,
        `events stream on A: ${heard.reason} after ${heard.ms - sent} ms`,
      );
      expectReason(
        t,
        await t.call(at(c, 0), 'GET', '/api/auth/me', { token: s.accessToken }),
        'FORCED_LOGOUT',
        'access token on A',
      );
      expectReason(
        t,
        await t.call(at(c, 1), 'GET', '/api/auth/me', { token: s.accessToken }),
        'FORCED_LOGOUT',
        'access token on B',
      );
    },
  },
  {
    name: 'sign in on A, refresh on B, use on C',
    async run(c, t) {
      const s = await signIn(t, at(c, 0));
      const r = await t.call(at(c, 1), 'POST', '/api/auth/refresh', { body: { refreshToken: s.refreshToken } });
      t.expect(r.status === 200, `refresh on B: ${r.status}`);
      const me = await t.call(at(c, 2), 'GET', '/api/auth/me', { token: r.body?.data?.accessToken });
      t.expect(me.status === 200, `me on C with B's token: ${me.status}`);
    },
  },
  {
    name: 'account disabled on B: 401 on A and C',
    async run(c, t) {
      const admin = await signIn(t, at(c, 0));
      const u = await createUser(c, t, admin.accessToken);
      const s = await signIn(t, at(c, 0), u.username, u.password);
      const off = await t.call(at(c, 1), 'PATCH', `/api/users/${u.id}`, {
        token: admin.accessToken,
        body: { status: 'disabled' },
      });
      t.expect(off.status === 200, `disable on B: ${off.status}`);
      expect401(t, await t.call(at(c, 0), 'GET', '/api/auth/me', { token: s.accessToken }), 'access token on A');
      expect401(t, await t.call(at(c, 2), 'GET', '/api/auth/me', { token: s.accessToken }), 'access token on C');
      expect401(
        t,
        await t.call(at(c, 2), 'POST', '/api/auth/refresh', { body: { refreshToken: s.refreshToken } }),
        'refresh on C',
      );
    },
  },
  {
    name: 'password reset on C (token_version): 401 on A and B',
    async run(c, t) {
      const admin = await signIn(t, at(c, 0));
      const u = await createUser(c, t, admin.accessToken);
      const s = await signIn(t, at(c, 0), u.username, u.password);
      const reset = await t.call(at(c, 2), 'POST', `/api/users/${u.id}/reset-password`, {
        token: admin.accessToken,
        body: { password: 'another-password-123' },
      });
      t.expect(reset.status >= 200 && reset.status < 300, `reset on C: ${reset.status}`);
      expect401(t, await t.call(at(c, 0), 'GET', '/api/auth/me', { token: s.accessToken }), 'access token on A');
      expect401(
        t,
        await t.call(at(c, 1), 'POST', '/api/auth/refresh', { body: { refreshToken: s.refreshToken } }),
        'refresh on B',
      );
    },
  },
  {
    name: '100 concurrent refreshes of one token: exactly one success',
    async run(c, t) {
      const s = await signIn(t, c.proxy);
      const replies = await Promise.all(
        Array.from({ length: 100 }, () =>
          t.call(c.proxy, 'POST', '/api/auth/refresh', { body: { refreshToken: s.refreshToken } }),
        ),
      );
      const ok = replies.filter((r) => r.status === 200).length;
      const spread = new Set(replies.map((r) => r.upstream)).size;
      t.note(`${ok} success, ${replies.filter((r) => r.status === 401).length}×401, over ${spread} instances`);
      t.expect(ok === 1, `expected exactly one successful refresh, got ${ok}`);
      t.expect(spread === 3, `refreshes reached ${spread} instances, not 3`);
      t.failures += replies.filter((r) => r.status !== 200 && r.status !== 401).length;
    },
  },
  {
    name: `public rate limit shared (${RATE_LIMIT_MAX} per client, not ${3 * RATE_LIMIT_MAX})`,
    async run(c, t) {
      const ip = randomIp();
      const replies = [];
      for (let i = 0; i < RATE_LIMIT_MAX + 30; i++)
        replies.push(await t.call(c.proxy, 'GET', '/api/random-color', { ip }));
      const ok = replies.filter((r) => r.status === 200).length;
      t.note(`${ok}×200, ${replies.filter((r) => r.status === 429).length}×429`);
      t.expect(ok === RATE_LIMIT_MAX, `expected ${RATE_LIMIT_MAX} answers before 429, got ${ok}`);
      t.failures += replies.filter((r) => r.status !== 200 && r.status !== 429).length;
    },
  },
  {
    name: `API key: one quota over three instances (${KEY_PER_MINUTE} per minute, not ${3 * KEY_PER_MINUTE}); revoked on A, refused by all within 1 s`,
    async run(c, t) {
      const admin = await signIn(t, at(c, 0));
      const create = (name: string, perMinute?: number) =>
        t.call(at(c, 0), 'POST', '/api/admin/api-keys', { token: admin.accessToken, body: { name, perMinute } });
      const quota = await create(`cluster-quota-${Date.now()}`, KEY_PER_MINUTE);
      if (!t.expect(quota.status === 201, `creating a key: ${quota.status}`)) return;
      // The per-minute window is the clock's minute: not across its edge.
      const left = 60_000 - (Date.now() % 60_000);
      if (left < 10_000) await sleep(left + 100);
      // Sent as Authorization: Bearer tj_…, the other header a key may come in.
      const secret = quota.body.data.secret as string;
      const replies = await Promise.all(
        Array.from({ length: KEY_PER_MINUTE + 30 }, () =>
          t.call(c.proxy, 'GET', '/api/random-color', { token: secret }),
        ),
      );
      const ok = replies.filter((r) => r.status === 200).length;
      const limited = replies.filter((r) => r.status === 429).length;
      const spread = new Set(replies.map((r) => r.upstream)).size;
      t.note(`${ok}×200, ${limited}×429 over ${spread} instances`);
      t.expect(ok === KEY_PER_MINUTE, `expected exactly ${KEY_PER_MINUTE} answers before 429, got ${ok}`);
      t.expect(spread === 3, `keyed requests reached ${spread} instances, not 3`);
      t.failures += replies.length - ok - limited;

      const other = await create(`cluster-revoke-${Date.now()}`);
      const key = other.body.data as { key: { id: string }; secret: string };
      // Every instance has the key in its cache before it is revoked.
      for (const inst of c.instances)
        t.expect(
          (await t.call(inst.url, 'GET', '/api/random-color', { token: key.secret })).status === 200,
          `${inst.name}: a new key not served`,
        );
      const t0 = Date.now();
      const revoke = await t.call(at(c, 0), 'DELETE', `/api/admin/api-keys/${key.key.id}`, {
        token: admin.accessToken,
      });
      t.expect(revoke.status === 204, `revoke on A: ${revoke.status}`);
      const times = await Promise.all(
        c.instances.map(async (inst) => {
          const refused = await waitFor(
            async () => (await t.call(inst.url, 'GET', '/api/random-color', { token: key.secret })).status === 401,
            1000,
          );
          return refused ? Date.now() - t0 : undefined;
        }),
      );
      t.note(`refused after ${times.map((ms) => (ms === undefined ? '>1000' : ms)).join(' / ')} ms`);
      t.expect(
        times.every((ms) => ms !== undefined),
        'not every instance refused the revoked key within 1 s',
      );
    },
  },
  {
    name: 'content change on A served by all three within 1 s',
    async run(c, t) {
      const admin = await signIn(t, at(c, 0));
      const year = 2040 + Math.floor(Math.random() * 30);
      const body = { year, holidays: [{ name: '元旦', start: `${year}-01-01`, end: `${year}-01-01`, work: [] }] };
      const t0 = Date.now();
      const add = await t.call(at(c, 0), 'POST', '/api/admin/content/holidays', { token: admin.accessToken, body });
      t.expect(add.status === 201, `add on A: ${add.status}`);
      const times = await Promise.all(
        c.instances.map(async (inst) => {
          const seen = await waitFor(
            async () => (await t.call(inst.url, 'GET', `/api/holiday?year=${year}`)).status === 200,
            1000,
          );
          return seen ? Date.now() - t0 : undefined;
        }),
      );
      t.note(`served after ${times.map((ms) => (ms === undefined ? '>1000' : ms)).join(' / ')} ms`);
      t.expect(
        times.every((ms) => ms !== undefined),
        'not every instance served the change within 1 s',
      );
    },
  },
  {
    name: 'SIGKILL one instance during writes and reads',
    async run(c, t) {
      const admin = await signIn(t, c.proxy);
      const load = startLoad(t, c.proxy, admin.accessToken, 'kill');
      await sleep(1500);
      await c.instances[1].kill();
      // From the moment the process is gone (the proxy may still hold kept-alive connections to it for a moment).
      const killedAt = Date.now();
      await sleep(3000);
      const records = await load.stop();
      const failed = records.filter((r) => r.status < 200 || r.status >= 300);
      t.failures = failed.length;
      // Only requests that were inside the killed process may fail; one sent after the kill goes elsewhere.
      const late = failed.filter((r) => r.sent > killedAt + 100);
      t.expect(
        late.length === 0,
        `${late.length} requests sent after the kill failed: ${late.map((r) => `${r.kind} ${r.status} ${r.detail}`).join('; ')}`,
      );
      t.lostWrites = await countLostWrites(c.pg, records);
      const writes = records.filter((r) => r.kind === 'write' && r.status === 201).length;
      const kinds = [...new Set(failed.map((r) => `${r.kind} ${r.status}`))].join(', ');
      t.note(`${writes} writes answered 201; ${failed.length} failed (${kinds || 'none'}), in flight at the kill`);
      await c.instances[1].start();
    },
  },
  {
    name: 'PostgreSQL restart during load',
    async run(c, t) {
      const admin = await signIn(t, c.proxy);
      const load = startLoad(t, c.proxy, admin.accessToken, 'pgrestart');
      await sleep(1000);
      await c.pg.stop();
      await sleep(1500);
      const down = await Promise.all(c.instances.map((i) => t.call(i.url, 'GET', '/readyz')));
      t.expect(
        down.every((r) => r.status === 503),
        `/readyz while PostgreSQL is down: ${down.map((r) => r.status).join(', ')}`,
      );
      const write = await t.call(c.proxy, 'POST', '/api/admin/content/jokes', {
        token: admin.accessToken,
        body: { content: `cluster-pgdown-${Date.now()}` },
      });
      t.expect(
        write.status >= 500 && typeof write.body?.code === 'string' && typeof write.body?.message === 'string',
        `a write while PostgreSQL is down: ${write.status} ${JSON.stringify(write.body).slice(0, 120)}`,
      );
      const pub = await t.call(c.proxy, 'GET', '/api/random-color');
      t.expect(pub.status === 200, `a public read while PostgreSQL is down: ${pub.status}`);
      await sleep(1500);
      await c.pg.start();
      const back = Date.now();
      const recovered = await Promise.all(
        c.instances.map(async (i) =>
          (await waitForStatus(`${i.url}/readyz`, 200, 10_000)) ? Date.now() - back : undefined,
        ),
      );
      const readyAt = Date.now();
      t.note(`ready again after ${recovered.map((ms) => ms ?? '>10000').join(' / ')} ms`);
      t.expect(
        recovered.every((ms) => ms !== undefined),
        'an instance was not ready within 10 s of PostgreSQL returning',
      );
      await sleep(1500);
      const records = await load.stop();
      // Requests sent once every instance is ready again must all succeed (a small margin for ones in flight).
      const after = records.filter((r) => r.sent > readyAt + 200 && (r.status < 200 || r.status >= 300));
      t.expect(after.length === 0, `${after.length} failures after recovery`);
      t.failures = records.filter((r) => r.status < 200 || r.status >= 300).length;
      t.lostWrites = await countLostWrites(c.pg, records);
      const final = await t.call(c.proxy, 'POST', '/api/admin/content/jokes', {
        token: admin.accessToken,
        body: { content: `cluster-pgback-${Date.now()}` },
      });
      t.expect(final.status === 201, `a write after recovery: ${final.status}`);
      t.note(
        `${records.filter((r) => r.kind === 'write' && r.status === 201).length} writes answered 201; failures are the outage's`,
      );
    },
  },
  {
    name: 'Redis down: keeps working per instance, resyncs on return',
    async run(c, t) {
      const admin = await signIn(t, c.proxy);
      await c.redis.stop();
      const ready = await waitFor(
        async () =>
          (await Promise.all(c.instances.map((i) => t.call(i.url, 'GET', '/readyz')))).every(
            (r) => r.status === 200 && r.body.rateLimit === 'per-instance',
          ),
        5000,
      );
      t.expect(ready, '/readyz does not report ready with per-instance rate limits while Redis is down');
      // Counted per instance: one client gets the full allowance on A, and again on B.
      const ip = randomIp();
      let okA = 0;
      for (let i = 0; i < RATE_LIMIT_MAX + 5; i++)
        if ((await t.call(at(c, 0), 'GET', '/api/random-color', { ip })).status === 200) okA++;
      const onB = await t.call(at(c, 1), 'GET', '/api/random-color', { ip });
      t.expect(
        okA === RATE_LIMIT_MAX && onB.status === 200,
        `per-instance limit: ${okA} on A, then ${onB.status} on B`,
      );
      t.expect(
        /counted per instance/.test(c.instances[0].logText()),
        'no warning about per-instance rate limits in the log',
      );
      const login = await t.call(c.proxy, 'POST', '/api/auth/login', { body: ADMIN });
      t.expect(login.status === 200, `sign-in while Redis is down: ${login.status}`);
      // A change made now cannot be announced; the others must pick it up when Redis returns.
      const year = 2070 + Math.floor(Math.random() * 30);
      const add = await t.call(at(c, 0), 'POST', '/api/admin/content/holidays', {
        token: admin.accessToken,
        body: { year, holidays: [{ name: '元旦', start: `${year}-01-01`, end: `${year}-01-01`, work: [] }] },
      });
      t.expect(add.status === 201, `content change while Redis is down: ${add.status}`);
      await c.redis.start();
      const back = Date.now();
      const shared = await waitFor(
        async () =>
          (await Promise.all(c.instances.map((i) => t.call(i.url, 'GET', '/readyz')))).every(
            (r) => r.body?.rateLimit === 'shared',
          ),
        15_000,
      );
      t.expect(shared, 'rate limits not shared again within 15 s of Redis returning');
      const synced = await waitFor(
        async () =>
          (await Promise.all(c.instances.map((i) => t.call(i.url, 'GET', `/api/holiday?year=${year}`)))).every(
            (r) => r.status === 200,
          ),
        15_000,
      );
      t.expect(synced, 'the change made during the outage did not reach every instance after Redis returned');
      t.note(`shared again and resynchronised after ${Date.now() - back} ms`);
    },
  },
];
