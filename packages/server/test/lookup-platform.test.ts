import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Type } from '@sinclair/typebox';
import { buildApp } from '../src/app.js';
import { LookupError, paramError } from '../src/errors.js';
import { heapBytes, lookupRoute, RawReply } from '../src/public/platform/lookup-platform.js';
import { PLAIN_ASCII } from '../src/public/shared/schemas.js';
import { freshDb, getTestInstance, REDIS_URL, testConfig, type TestInstance, useTestApp } from './helpers.js';

/** What the `stableData` probe picks from: replaced (a new snapshot) by the test, never changed in place. */
let stableSnapshot: ReadonlyArray<{ word: string }> = [{ word: '春眠不觉晓' }, { word: 'dawn' }];

/** How often the asynchronous cached probe's handler ran. */
let asyncCalls = 0;

/** Test-only endpoints, registered beside the real public API through the same platform. */
async function platformProbeRoutes(api: FastifyInstance) {
  lookupRoute(api, {
    group: 'toolbox',
    path: '/echo',
    zh: '测试用接口：回显',
    summary: 'echo',
    query: Type.Object({ n: Type.Integer({ minimum: 1, maximum: 10, default: 1, examples: [3] }) }),
    data: Type.Object({ n: Type.Integer() }),
    handler: (q) => ({ n: q.n }),
  });
  lookupRoute(api, {
    group: 'life',
    path: '/cached',
    zh: '测试用接口：缓存',
    summary: 'cached',
    query: Type.Object({
      n: Type.Integer({ minimum: 1, maximum: 10, default: 1 }),
      format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('text')])),
    }),
    data: Type.Object({ square: Type.Integer() }),
    cache: { maxAge: 3600 },
    handler: (q) =>
      q.format === 'text' ? new RawReply('text/plain; charset=utf-8', String(q.n * q.n)) : { square: q.n * q.n },
  });
  lookupRoute(api, {
    group: 'life',
    path: '/cached-async',
    zh: '测试用接口：异步作答的缓存',
    summary: 'cached async',
    query: Type.Object({ n: Type.Integer({ minimum: 1, maximum: 10 }) }),
    data: Type.Object({ cube: Type.Integer() }),
    cache: { maxAge: 60 },
    handler: async (q) => {
      asyncCalls++;
      await new Promise((resolve) => setImmediate(resolve));
      return { cube: q.n ** 3 };
    },
  });
  lookupRoute(api, {
    group: 'daily',
    path: '/stable',
    zh: '测试用接口：快照中的条目',
    summary: 'stable',
    query: Type.Object({ i: Type.Integer({ minimum: 0, maximum: 1, default: 0 }) }),
    data: Type.Object({ word: Type.String() }),
    stableData: true,
    handler: (q) => stableSnapshot[q.i],
  });
  lookupRoute(api, {
    group: 'daily',
    path: '/stable-list',
    zh: '测试用接口：快照中的多个条目',
    summary: 'stable list',
    query: Type.Object({ picks: Type.String({ maxLength: 10, default: '' }) }),
    data: Type.Array(Type.Object({ word: Type.String() })),
    stableData: true,
    // Each digit picks an item; the items carry a field the schema leaves out.
    handler: (q) => [...q.picks].map((d) => stableSnapshot[Number(d)] as { word: string; secret?: string }),
  });
  lookupRoute(api, {
    group: 'daily',
    path: '/fail',
    zh: '测试用接口：失败',
    summary: 'fail',
    query: Type.Object({ how: Type.String({ maxLength: 20 }) }),
    data: Type.Null(),
    handler: (q) => {
      if (q.how === 'lookup') throw new LookupError('没有符合条件的结果');
      if (q.how === 'param') throw paramError('how', '应为 lookup 或 param', q.how);
      // An unexpected failure whose message and stack must never reach the caller.
      throw new Error(`ENOENT: no such file /srv/secret/data.json at Object.openSync (node:fs:573:3)`);
    },
  });
}

async function appWithProbes(): Promise<TestInstance> {
  const db = await freshDb('sqlite');
  const app = await buildApp({ config: testConfig(), db, logger: false });
  await app.register(platformProbeRoutes, { prefix: '/api/__platform' });
  await app.ready();
  return {
    app,
    db,
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}

/** Asserts the public envelope and returns it; `timestamp` must be the time of the response. */
function envelope(res: LightMyRequestResponse, before: number) {
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(['code', 'data', 'msg', 'timestamp']);
  expect(body.timestamp).toBeGreaterThanOrEqual(before);
  expect(body.timestamp).toBeLessThanOrEqual(Date.now());
  expect(res.body).not.toMatch(/\bat .+:\d+:\d+|node:internal|\/srv\/|\.ts:\d/);
  return body as { code: number; msg: string; data: unknown; timestamp: number };
}

describe('public API platform', () => {
  let t: TestInstance;
  beforeAll(async () => {
    t = await appWithProbes();
  });
  afterAll(() => t.close());

  it('wraps a success in {code:200, msg:"请求成功", data, timestamp} with the current time', async () => {
    const before = Date.now();
    const res = await t.app.inject('/api/__platform/echo?n=3');
    expect(res.statusCode).toBe(200);
    const body = envelope(res, before);
    expect(body).toEqual({ code: 200, msg: '请求成功', data: { n: 3 }, timestamp: body.timestamp });
  });

  it('sends an item of an immutable snapshot (stableData) as the envelope of that item, and a new snapshot’s items', async () => {
    for (const [i, word] of [
      [0, '春眠不觉晓'],
      [1, 'dawn'],
      [0, '春眠不觉晓'],
    ] as const) {
      const before = Date.now();
      const res = await t.app.inject(`/api/__platform/stable?i=${i}`);
      const body = envelope(res, before);
      expect(body).toEqual({ code: 200, msg: '请求成功', data: { word }, timestamp: body.timestamp });
      expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.body)));
    }
    stableSnapshot = [{ word: '处处闻啼鸟' }, { word: 'birds' }];
    expect((await t.app.inject('/api/__platform/stable?i=0')).json().data).toEqual({ word: '处处闻啼鸟' });
  });

  it('sends fresh arrays of snapshot items (stableData) as the schema serialises them, items repeated or not', async () => {
    stableSnapshot = [{ word: '春眠不觉晓' }, { word: 'dawn', secret: 'never sent' } as { word: string }];
    for (const picks of ['', '0', '01', '101', '0110', '1']) {
      const before = Date.now();
      const res = await t.app.inject(`/api/__platform/stable-list?picks=${picks}`);
      const body = envelope(res, before);
      expect(body.data, picks).toEqual([...picks].map((d) => ({ word: stableSnapshot[Number(d)].word })));
      expect(res.body).not.toContain('never sent');
      expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.body)));
    }
    stableSnapshot = [{ word: '处处闻啼鸟' }, { word: 'birds' }];
    expect((await t.app.inject('/api/__platform/stable-list?picks=10')).json().data).toEqual([
      { word: 'birds' },
      { word: '处处闻啼鸟' },
    ]);
  });

  it('applies the documented default when a parameter is omitted', async () => {
    expect((await t.app.inject('/api/__platform/echo')).json().data).toEqual({ n: 1 });
  });

  it.each([
    ['out of range', 'n=11', /参数 n 无效.*1 至 10.*收到 "11"/],
    ['not a number', 'n=abc', /参数 n 无效：应为整数.*收到 "abc"/],
    ['repeated', 'n=1&n=2', /参数 n .*只能出现一次/],
    // ajv coerces these to ±Infinity and lets them through `maximum` (ajv#2212): the platform must not.
    ['Infinity', 'n=Infinity', /^参数 n 无效：应为整数，范围 1 至 10，收到 "Infinity"$/],
    ['-Infinity', 'n=-Infinity', /^参数 n 无效：应为整数，范围 1 至 10，收到 "-Infinity"$/],
    ['overflowing', 'n=1e999', /^参数 n 无效：应为整数，范围 1 至 10，收到 "Infinity"$/],
  ])('answers a bad parameter (%s) with a 500 envelope naming it', async (_what, qs, msg) => {
    const before = Date.now();
    const res = await t.app.inject(`/api/__platform/echo?${qs}`);
    expect(res.statusCode).toBe(500);
    const body = envelope(res, before);
    expect(body).toMatchObject({ code: 500, data: null });
    expect(body.msg).toMatch(msg);
  });

  it('names a missing required parameter', async () => {
    const res = await t.app.inject('/api/__platform/fail');
    expect(res.statusCode).toBe(500);
    expect(res.json().msg).toBe('参数 how 无效：缺少必填参数');
  });

  it('renders LookupError and paramError messages as they were written', async () => {
    expect((await t.app.inject('/api/__platform/fail?how=lookup')).json()).toMatchObject({
      code: 500,
      msg: '没有符合条件的结果',
      data: null,
    });
    expect((await t.app.inject('/api/__platform/fail?how=param')).json().msg).toBe(
      '参数 how 无效：应为 lookup 或 param，收到 "param"',
    );
  });

  it('hides the message and stack of an unexpected failure', async () => {
    const before = Date.now();
    const res = await t.app.inject('/api/__platform/fail?how=crash');
    expect(res.statusCode).toBe(500);
    const body = envelope(res, before);
    expect(body.msg).toBe('服务器内部错误，请稍后重试');
    expect(res.body).not.toContain('ENOENT');
  });

  it('answers an unknown /api path with a 404 envelope', async () => {
    const before = Date.now();
    const res = await t.app.inject('/api/no-such-endpoint?x=1');
    expect(res.statusCode).toBe(404);
    const body = envelope(res, before);
    expect(body).toMatchObject({ code: 404, data: null });
    expect(body.msg).toContain('/api/no-such-endpoint');
    expect(body.msg).not.toContain('x=1');
  });

  it('answers a malformed percent-escape in the path with an envelope, not a framework error', async () => {
    const before = Date.now();
    const res = await t.app.inject('/api/%E0%A4%A');
    expect([400, 404]).toContain(res.statusCode);
    const body = envelope(res, before);
    expect(body.data).toBeNull();
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('answers HEAD like GET without a body', async () => {
    const get = await t.app.inject('/api/__platform/echo?n=2');
    const head = await t.app.inject({ method: 'HEAD', url: '/api/__platform/echo?n=2' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.headers['access-control-allow-origin']).toBe('*');
  });

  it('sends Access-Control-Allow-Origin: * on success, 500 and 404, and answers a preflight', async () => {
    const origin = { origin: 'https://example.org' };
    for (const url of [
      '/api/__platform/echo',
      '/api/__platform/echo?n=99',
      '/api/__platform/fail?how=crash',
      '/api/nothing-here',
    ]) {
      const res = await t.app.inject({ url, headers: origin });
      expect(res.headers['access-control-allow-origin'], url).toBe('*');
    }
    const pre = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/__platform/echo',
      headers: { ...origin, 'access-control-request-method': 'GET' },
    });
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('*');
    expect(pre.headers['access-control-allow-methods']).toContain('GET');
  });

  it('sends Cache-Control and ETag on a cached route and answers If-None-Match with 304', async () => {
    const first = await t.app.inject('/api/__platform/cached?n=4');
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toEqual({ square: 16 });
    expect(first.headers['cache-control']).toBe('public, max-age=3600');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);

    const again = await t.app.inject({ url: '/api/__platform/cached?n=4', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['access-control-allow-origin']).toBe('*');

    // The same answer however the query is ordered or the tag is listed (RFC 9110: a list, weak tags, *).
    for (const header of [`"nope", ${etag}`, `W/${etag}`, '*']) {
      const res = await t.app.inject({
        url: '/api/__platform/cached?format=json&n=4',
        headers: { 'if-none-match': header },
      });
      expect(res.statusCode, header).toBe(304);
    }
    const other = await t.app.inject({ url: '/api/__platform/cached?n=5', headers: { 'if-none-match': etag } });
    expect(other.statusCode).toBe(200);
    expect(other.headers.etag).not.toBe(etag);
  });

  it('answers each cached query with its own body and the time of the answer, several in one millisecond', async () => {
    // The clock stands still: the route re-sends the bytes it last sent for the same entry in the same millisecond.
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now);
    try {
      for (const n of [2, 3, 2, 2, 3]) {
        const res = await t.app.inject(`/api/__platform/cached?n=${n}`);
        expect(res.json(), `n=${n}`).toEqual({ code: 200, msg: '请求成功', data: { square: n * n }, timestamp: now });
      }
      clock.mockReturnValue(now + 1);
      expect((await t.app.inject('/api/__platform/cached?n=3')).json().timestamp).toBe(now + 1);
    } finally {
      clock.mockRestore();
    }
  });

  it('memoises the answer of a handler that answers asynchronously, and sends it from the memo after', async () => {
    const first = await t.app.inject('/api/__platform/cached-async?n=6');
    expect(first.json().data).toEqual({ cube: 216 });
    const again = await t.app.inject('/api/__platform/cached-async?n=6');
    expect(again.json().data).toEqual({ cube: 216 });
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(asyncCalls).toBe(1);
  });

  it('treats queries the handler cannot tell apart as one cache entry', async () => {
    const etag = (await t.app.inject('/api/__platform/cached?n=7')).headers.etag;
    for (const qs of ['n=7&_=1700000000000', 'n=7&t=42', 'n=7&format=', '_=1&n=7']) {
      expect((await t.app.inject(`/api/__platform/cached?${qs}`)).headers.etag, qs).toBe(etag);
    }
  });

  it('reads an empty optional parameter as not given, as /docs’ own forms send it', async () => {
    for (const qs of ['n=', 'n=&n=', 'n=3&n=']) {
      const res = await t.app.inject(`/api/__platform/echo?${qs}`);
      expect(res.statusCode, qs).toBe(200);
    }
    expect((await t.app.inject('/api/__platform/echo?n=')).json().data).toEqual({ n: 1 });
    expect((await t.app.inject('/api/__platform/echo?n=3&n=')).json().data).toEqual({ n: 3 });
  });

  it('refuses a parameter the endpoint does not know, naming it and the accepted ones', async () => {
    for (const qs of ['n=7&utm_source=x', 'plate=1', 'n=7&n2=1']) {
      const res = await t.app.inject(`/api/__platform/cached?${qs}`);
      expect(res.statusCode, qs).toBe(500);
      const key = qs.split('&').at(-1)!.split('=')[0];
      expect(res.json().msg, qs).toMatch(new RegExp(`^参数 ${key} 无效：不支持该参数，本接口接受的参数为 n、format`));
    }
  });

  it.each(['0x7', '1e1', '07', '+7', ' 7', '7.0e0', '0b11'])(
    'refuses the non-decimal number n=%s with the usual message',
    async (n) => {
      const res = await t.app.inject(`/api/__platform/echo?n=${encodeURIComponent(n)}`);
      expect(res.statusCode).toBe(500);
      expect(res.json().msg).toMatch(/^参数 n 无效：应为整数，范围 1 至 10（须用十进制写法/);
    },
  );

  it('documents a parameter with a default as optional', async () => {
    const doc = (await t.app.inject('/openapi.json')).json();
    const params = doc.paths['/api/__platform/echo'].get.parameters as Array<{ name: string; required?: boolean }>;
    expect(params.find((p) => p.name === 'n')?.required).not.toBe(true);
  });

  it('caches raw (non-JSON) answers with their own content type and ETag', async () => {
    const res = await t.app.inject('/api/__platform/cached?n=3&format=text');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe('9');
    const again = await t.app.inject({
      url: '/api/__platform/cached?n=3&format=text',
      headers: { 'if-none-match': res.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
  });

  it('sends no ETag on uncached routes', async () => {
    const res = await t.app.inject('/api/__platform/echo?n=1');
    expect(res.headers.etag).toBeUndefined();
  });
});

// The limiter sits in front of the real public API (public/index.ts). A request with a missing parameter still
// counts, so the test needs no data set: /api/password-strength without `password` is a cheap 500.
const LIMITED = '/api/password-strength';

async function hit(app: FastifyInstance, ip: string) {
  return app.inject({ url: LIMITED, remoteAddress: ip, headers: { origin: 'https://example.org' } });
}

describe('public API rate limit', () => {
  const t = useTestApp('sqlite', { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW: '60' });

  it('answers the request past the limit with a 429 envelope, Retry-After and CORS', async () => {
    for (let i = 0; i < 3; i++) expect((await hit(t.app, '192.0.2.10')).statusCode).toBe(500);
    const before = Date.now();
    const res = await hit(t.app, '192.0.2.10');
    expect(res.statusCode).toBe(429);
    const body = envelope(res, before);
    expect(body).toMatchObject({ code: 429, data: null });
    expect(body.msg).toContain('请求过于频繁');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('counts each client address separately', async () => {
    expect((await hit(t.app, '192.0.2.11')).statusCode).toBe(500);
  });

  it('leaves the admin API and health checks out of the public limit', async () => {
    for (let i = 0; i < 5; i++)
      expect((await t.app.inject({ url: '/healthz', remoteAddress: '192.0.2.10' })).statusCode).toBe(200);
  });
});

describe('public API rate limit switched off', () => {
  const t = useTestApp('sqlite', { RATE_LIMIT_MAX: '0' });

  it('never answers 429 when RATE_LIMIT_MAX=0', async () => {
    for (let i = 0; i < 50; i++) expect((await hit(t.app, '192.0.2.20')).statusCode).toBe(500);
  });
});

describe('public API rate limit shared through Redis', () => {
  if (!REDIS_URL) {
    console.warn('[tianji tests] TEST_REDIS_URL is not set: the shared (Redis) rate-limit test is skipped.');
    it.skip('two instances share one count (needs TEST_REDIS_URL)', () => undefined);
    return;
  }
  let a: TestInstance;
  let b: TestInstance;
  beforeAll(async () => {
    const env = { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW: '60', REDIS_URL: REDIS_URL! };
    [a, b] = await Promise.all([getTestInstance('sqlite', env), getTestInstance('sqlite', env)]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('two instances share one count per client', async () => {
    // A fresh address per run: the count outlives the test in Redis for the window.
    const ip = `198.18.${randomInt(256)}.${randomInt(256)}`;
    expect((await hit(a.app, ip)).statusCode).toBe(500);
    expect((await hit(b.app, ip)).statusCode).toBe(500);
    expect((await hit(a.app, ip)).statusCode).toBe(500);
    const res = await hit(b.app, ip);
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ code: 429, data: null });
    expect(res.headers['retry-after']).toBeDefined();
  });
});

describe('the memo’s byte budget', () => {
  it('counts a string with Chinese text at two bytes a character, Latin-1 text and Buffers at one', () => {
    expect(heapBytes('{"msg":"ok","n":1}')).toBe(18);
    expect(heapBytes('café')).toBe(4);
    expect(heapBytes('{"msg":"请求成功"}')).toBe(28); // 14 characters
    expect(heapBytes(Buffer.from('请求成功'))).toBe(12);
  });
});

describe('answer fields the service composes as plain ASCII (AsciiText)', () => {
  type Node = {
    format?: string;
    type?: string;
    properties?: Record<string, Node>;
    items?: Node;
    anyOf?: Node[];
    maximum?: number;
  };
  const routes: Array<{ url: string; query?: Node; answer: Node }> = [];
  const t = useTestApp(
    'sqlite',
    {},
    {
      onRoute: (r) => {
        const schema = r.schema as { querystring?: Node; response?: Record<string, Node> } | undefined;
        const answer = schema?.response?.[200];
        if (
          r.method === 'GET' &&
          r.url.startsWith('/api/') &&
          (r.config as { area?: string })?.area === 'lookup' &&
          answer
        )
          routes.push({ url: r.url, query: schema.querystring, answer });
      },
    },
  );
  const examples = JSON.parse(
    readFileSync(new URL('../../../data/openapi-examples.json', import.meta.url), 'utf8'),
  ) as Record<string, { query: string }>;
  const hasUnsafe = (s: Node | undefined): boolean =>
    !!s &&
    (s.format === 'unsafe' ||
      Object.values(s.properties ?? {}).some(hasUnsafe) ||
      hasUnsafe(s.items) ||
      (s.anyOf ?? []).some(hasUnsafe));
  /** The values at the schema's unsafe strings (every branch of an anyOf is tried: only strings there count). */
  function unsafeValues(s: Node | undefined, v: unknown, out: unknown[]): void {
    if (!s || v === null || v === undefined) return;
    if (s.format === 'unsafe') out.push(v);
    for (const [k, p] of Object.entries(s.properties ?? {}))
      if (typeof v === 'object') unsafeValues(p, (v as Record<string, unknown>)[k], out);
    if (s.items && Array.isArray(v)) for (const item of v) unsafeValues(s.items, item, out);
    for (const branch of s.anyOf ?? []) unsafeValues(branch, v, out);
  }

  it('hold only printable ASCII without " or \\ in answers to the documented examples, unseeded and at the largest count', async () => {
    const checked = new Map<string, number>();
    for (const { url, query, answer } of routes.filter((r) => hasUnsafe(r.answer))) {
      const example = new URLSearchParams(examples[url]?.query ?? '');
      const queries = [example.toString()];
      if (example.has('seed')) {
        example.delete('seed');
        const max = query?.properties?.count?.maximum;
        if (max) example.set('count', String(max));
        for (let i = 0; i < 5; i++) queries.push(example.toString());
      }
      for (const q of queries) {
        const res = await t.app.inject(`${url}?${q}`);
        expect(res.statusCode, `${url}?${q}: ${res.body}`).toBe(200);
        // A quote or a control character in an unescaped field would make the body no JSON at all.
        const values: unknown[] = [];
        unsafeValues(answer, JSON.parse(res.body), values);
        for (const v of values) expect(v, `${url}?${q}`).toMatch(PLAIN_ASCII);
        checked.set(url, (checked.get(url) ?? 0) + values.length);
      }
    }
    expect([...checked.keys()]).toEqual(expect.arrayContaining(['/api/random-color', '/api/random-user']));
    for (const [url, n] of checked) expect(n, url).toBeGreaterThan(0);
  });

  it("keep the serializer's format out of /openapi.json, which documents them as plain strings", async () => {
    const doc = (await t.app.inject('/openapi.json')).json() as { paths: Record<string, unknown> };
    expect(JSON.stringify(doc)).not.toContain('"unsafe"');
    const colors = JSON.stringify(doc.paths['/api/random-color']);
    expect(colors).toContain('"hex":{"examples":["#9d2933"],"type":"string"}');
  });
});
