import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Dialect } from '../src/db/index.js';
import { buildApp } from '../src/app.js';
import { REDIS_URL, bearer, describeEachDb, getTestInstance, login, testConfig, type TestInstance } from './helpers.js';
import { as, createUser, PASSWORD } from './admin-fixtures.js';

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** Opens the event stream and resolves with the first `session-ended` event (and whether the stream then closed). */
async function nextSessionEnded(base: string, accessToken: string, afterOpen: () => Promise<unknown>) {
  const res = await fetch(`${base}/api/auth/events`, { headers: bearer(accessToken) });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  while (!text.includes('\n\n')) text += (await reader.read()).value ?? ''; // the ": connected" comment
  await afterOpen();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  const block = text.split('\n\n').find((b) => b.startsWith('event: session-ended'));
  expect(block, text).toBeDefined();
  return JSON.parse(
    block!
      .split('\n')
      .find((l) => l.startsWith('data: '))!
      .slice(6),
  ) as { reason: string; message: string };
}

describeEachDb('session events', (dialect) => {
  let t: TestInstance;
  let base: string;
  let n = 0;

  beforeAll(async () => {
    t = await getTestInstance(dialect);
    base = await listen(t.app);
  });
  afterAll(() => t.close());

  it('an operator’s forced sign-out reaches the open stream of that user’s session, which then closes', async () => {
    const admin = as(t.app, (await login(t.app)).accessToken);
    const username = `streamer${++n}`;
    const id = await createUser(admin, username);
    const { accessToken } = await login(t.app, username, PASSWORD);
    const event = await nextSessionEnded(base, accessToken, () => admin('POST', `/api/users/${id}/force-logout`));
    expect(event).toEqual({ reason: 'FORCED_LOGOUT', message: '你已被管理员强制下线，请重新登录' });
  });

  it('ending one session from another device notifies that session only', async () => {
    const admin = as(t.app, (await login(t.app)).accessToken);
    const username = `streamer${++n}`;
    await createUser(admin, username);
    const laptop = await login(t.app, username, PASSWORD);
    const phone = await login(t.app, username, PASSWORD);
    const own = (await t.app.inject({ url: '/api/auth/sessions', headers: bearer(laptop.accessToken) })).json()
      .data as Array<{ id: string; current: boolean }>;
    const phoneId = own.find((s) => !s.current)!.id;
    const event = await nextSessionEnded(base, phone.accessToken, () =>
      t.app.inject({ method: 'DELETE', url: `/api/auth/sessions/${phoneId}`, headers: bearer(laptop.accessToken) }),
    );
    expect(event.reason).toBe('SESSION_ENDED');
  });

  it('the stream needs a valid access token', async () => {
    const res = await fetch(`${base}/api/auth/events`);
    expect(res.status).toBe(401);
  });
});

// Only with a Redis server (TEST_REDIS_URL).
(REDIS_URL ? describeEachDb : describe.skip)('session events across instances through Redis', (dialect) => {
  let a: TestInstance;
  let b: FastifyInstance;
  let baseA: string;

  beforeAll(async () => {
    a = await getTestInstance(dialect as Dialect, { REDIS_URL: REDIS_URL! });
    b = await buildApp({ config: testConfig({ REDIS_URL: REDIS_URL! }), db: a.db, logger: false });
    await b.ready();
    baseA = await listen(a.app);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a forced sign-out on one instance reaches a stream open on another', async () => {
    const admin = as(b, (await login(b)).accessToken);
    const id = await createUser(admin, 'across');
    const { accessToken } = await login(a.app, 'across', PASSWORD);
    const event = await nextSessionEnded(baseA, accessToken, () => admin('POST', `/api/users/${id}/force-logout`));
    expect(event.reason).toBe('FORCED_LOGOUT');
  });
});
