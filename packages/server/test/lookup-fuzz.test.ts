/**
 * Property test of the public API: every Area B route (every GET route whose config.area is 'lookup', collected as
 * it is registered, so routes added later are covered without touching this file) gets random and hostile query
 * strings; every answer must be a well-formed envelope (200 or 500; 404 only when a path segment is fuzzed) without
 * internals, no failure may be the generic server fault nor log at error level (a bad input is the caller's error, with
 * a message saying what is wrong), and the server must stay up. Parameters handed to third-party parsers get a
 * closer look in lookup-parser-inputs.test.ts.
 * Reproducible: the PRNG is seeded (FUZZ_SEED overrides the default seed).
 */
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteOptions } from 'fastify';
import { buildApp } from '../src/app.js';
import { LOOKUP_GROUPS } from '../src/catalogue/lookup-groups.js';
import { capturedLog, freshDb, testConfig, type TestInstance, useTestApp } from './helpers.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
const TOTAL_REQUESTS = 3000;
const MIN_PER_ROUTE = 40;
const IN_FLIGHT = 8;

/** mulberry32: a tiny seeded PRNG, so a failure can be replayed with the same seed. */
function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface ParamSchema {
  examples?: unknown[];
  default?: unknown;
  enum?: unknown[];
  anyOf?: Array<{ enum?: unknown[]; const?: unknown }>;
  minimum?: number;
  maximum?: number;
}
interface Param {
  name: string;
  in: 'query' | 'path';
  schema?: ParamSchema;
}
interface Route {
  path: string;
  params: Param[];
}

/** A registered public GET route, with its query parameters (from its TypeBox schema) and path parameters. */
function routeOf(r: RouteOptions): Route | undefined {
  const methods = ([] as string[]).concat(r.method);
  if (r.config?.area !== 'lookup' || !methods.includes('GET')) return undefined;
  const query = (r.schema?.querystring ?? {}) as { properties?: Record<string, ParamSchema> };
  const params: Param[] = Object.entries(query.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    schema,
  }));
  const path = r.url.replace(/:(\w+)/g, (_m, name: string) => {
    params.push({ name, in: 'path' });
    return `{${name}}`;
  });
  return { path, params };
}

// Values sent raw (already URL-encoded or deliberately malformed) and values to be encoded.
const RAW_VALUES = [
  '%E0%A4%A',
  '%',
  '%%',
  '%zz',
  '%C0%AF',
  '%ED%A0%80',
  '%00',
  '%0A%0D',
  '%1F%7F',
  '%FF%FE',
  '%2e%2e%2f',
  '%u0041',
  '+',
  '%2B%20',
  '&',
  '=',
  '==',
];
const HOSTILE_VALUES = [
  '',
  ' ',
  '\t',
  'null',
  'undefined',
  'true',
  'false',
  '[]',
  '{}',
  '[object Object]',
  '-1',
  '0',
  '-0',
  '1.5',
  '1e308',
  '-1e308',
  '1e-400',
  'NaN',
  'Infinity',
  '-Infinity',
  '0x10',
  '1e3',
  '9007199254740993',
  '  7  ',
  '+5',
  '٣',
  '１２３',
  '99999999999999999999999',
  '2026-02-30',
  '0000-00-00',
  '9999-12-31',
  '2026-13-01',
  '1899-12-31',
  '2101-01-01',
  '2026-1-1',
  '20260101',
  'a/1x',
  'aC/6H',
  '::1',
  '256.1.1.1',
  '1.2.3.4.5',
  '::ffff:1.2.3.4',
  'fe80::1%eth0',
  '0.0.0.0',
  '255.255.255.255',
  '1::2::3',
  "' OR '1'='1",
  '1; DROP TABLE users;--',
  '" OR ""="',
  "admin'--",
  'UNION SELECT * FROM users',
  '{"$gt":""}',
  '{"$where":"sleep(1000)"}',
  '<script>alert(1)</script>',
  'javascript:alert(1)',
  '../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%s%s%s%n',
  '{{7*7}}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as text
  '${7*7}',
  '#{7*7}',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '𠜎𠜱𠝹',
  '\u202eevil',
  '\ufeffbom',
  'e\u0301\u0301\u0301',
  '🧑‍🧑‍🧒‍🧒',
  '\u0000',
  '\u0007\u001b[31m',
  '\r\nSet-Cookie: x=1',
  '京',
  '粤B',
  '男',
  '女',
  'male',
  'a,b,c',
  'a,,b',
  ',',
  'z',
  'A',
  'a'.repeat(65),
  'x'.repeat(1000),
  '9'.repeat(400),
  'p4$$w0rd'.repeat(8),
];
const HOSTILE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  '__proto__[polluted]',
  'constructor[prototype][polluted]',
  'toString',
  'hasOwnProperty',
  '$where',
  'a[$ne]',
  'k[]',
  'k[0]',
  '',
  ' ',
  '%00',
  'k'.repeat(5000),
  '中文键',
];

function candidates(p: Param): unknown[] {
  const s = p.schema ?? {};
  const out: unknown[] = [...(s.examples ?? []), ...(s.enum ?? [])];
  if (s.default !== undefined) out.push(s.default);
  for (const o of s.anyOf ?? []) out.push(...(o.enum ?? []), ...(o.const !== undefined ? [o.const] : []));
  if (s.minimum !== undefined) out.push(s.minimum, s.minimum - 1);
  if (s.maximum !== undefined) out.push(s.maximum, s.maximum + 1);
  return out;
}

/** One request: a mix of valid values, hostile values, random text, repeated and unknown keys. */
function fuzzUrl(route: Route, rnd: () => number): { url: string; fuzzedPath: boolean } {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const randomText = () => {
    const len = pick([1, 2, 5, 20, 100, 3000]);
    let s = '';
    for (let i = 0; i < len; i++) {
      const r = rnd();
      s += String.fromCodePoint(
        r < 0.5
          ? 32 + Math.floor(rnd() * 95)
          : r < 0.6
            ? Math.floor(rnd() * 32)
            : r < 0.9
              ? 0x4e00 + Math.floor(rnd() * 0x5000)
              : 0x1f300 + Math.floor(rnd() * 0x300),
      );
    }
    return s;
  };
  const value = (p?: Param): string => {
    const r = rnd();
    if (p && r < 0.3) {
      const c = candidates(p);
      if (c.length) return encodeURIComponent(String(pick(c)));
    }
    if (r < 0.4) return pick(RAW_VALUES);
    if (r < 0.8) return encodeURIComponent(pick(HOSTILE_VALUES));
    return encodeURIComponent(randomText());
  };
  let path = route.path;
  let fuzzedPath = false;
  for (const p of route.params.filter((x) => x.in === 'path')) {
    const v = rnd() < 0.5 ? encodeURIComponent(String(pick(candidates(p).concat(['x'])))) : value();
    fuzzedPath = true;
    path = path.replace(`{${p.name}}`, v || 'x');
  }
  const pairs: string[] = [];
  for (const p of route.params.filter((x) => x.in === 'query')) {
    const r = rnd();
    if (r < 0.25) continue; // omitted
    pairs.push(`${p.name}=${value(p)}`);
    if (r > 0.9) pairs.push(`${p.name}=${value(p)}`); // repeated key → array
    if (r > 0.97) pairs.push(`${p.name}[]=${value(p)}`);
  }
  if (rnd() < 0.3) pairs.push(`${encodeURIComponent(pick(HOSTILE_KEYS))}=${value()}`);
  if (rnd() < 0.05) for (let i = 0; i < 300; i++) pairs.push(`k${i}=${i}`);
  if (rnd() < 0.05) pairs.push(pick(['', '&&&', '=', 'novalue', '%E0%A4%A=1']));
  for (let i = pairs.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [pairs[i], pairs[j]] = [pairs[j], pairs[i]];
  }
  return { url: pairs.length ? `${path}?${pairs.join('&')}` : path, fuzzedPath };
}

const SERVER_FAULT = '服务器内部错误，请稍后重试';
const LEAK = /\bat \S+ \(|\bat .+:\d+:\d+|node:internal|node_modules|\/work\/|\/home\/|\/srv\/|\.[tj]s:\d+|Error: /;

describe('public API under random and hostile query strings', () => {
  const log = capturedLog();
  const routes: Route[] = [];
  const onRoute = (r: RouteOptions) => {
    const route = routeOf(r);
    if (route) routes.push(route);
  };
  // Only error-level lines are kept: a request that logs one is a server fault (the stack trace of a crash).
  const t = useTestApp('sqlite', {}, { logger: { level: 'error', stream: log.stream }, onRoute });

  it('covers every public route, including each one the OpenAPI document lists', async () => {
    expect(routes.map((r) => r.path)).toContain('/api/password-strength');
    for (const r of routes) expect(r.path.startsWith('/api/'), r.path).toBe(true);
    const doc = (await t.app.inject('/openapi.json')).json() as {
      paths: Record<string, { get?: { tags?: string[] } }>;
    };
    const lookupTags = new Set<string>(Object.values(LOOKUP_GROUPS).map((g) => g.name));
    const documented = Object.entries(doc.paths)
      .filter(([, ops]) => ops.get?.tags?.some((tag) => lookupTags.has(tag)))
      .map(([path]) => path);
    expect(routes.map((r) => r.path)).toEqual(expect.arrayContaining(documented));
  });

  it(`answers every request with a well-formed envelope and stays up (seed ${SEED})`, {
    timeout: 120_000,
  }, async () => {
    const rnd = mulberry32(SEED);
    const perRoute = Math.max(MIN_PER_ROUTE, Math.ceil(TOTAL_REQUESTS / routes.length));
    const jobs = routes.flatMap((route) =>
      Array.from({ length: perRoute }, () => ({ route, ...fuzzUrl(route, rnd), head: rnd() < 0.05 })),
    );
    const problems: string[] = [];
    const statuses = new Map<number, number>();

    const check = async (job: (typeof jobs)[number]) => {
      const res = await t.app.inject({ method: job.head ? 'HEAD' : 'GET', url: job.url });
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      const where = `${job.head ? 'HEAD ' : ''}${job.url.slice(0, 200)} → ${res.statusCode}`;
      const allowed = job.fuzzedPath ? [200, 404, 500] : [200, 500];
      if (!allowed.includes(res.statusCode))
        return void problems.push(`${where}: unexpected status ${res.body.slice(0, 200)}`);
      if (LEAK.test(res.body)) return void problems.push(`${where}: internals in the body ${res.body.slice(0, 300)}`);
      if (job.head) return;
      const json = /^application\/json/.test(String(res.headers['content-type']));
      if (!json) {
        // A raw answer (text, script, image) is fine on success only.
        if (res.statusCode !== 200)
          problems.push(`${where}: error without the envelope (${res.headers['content-type']})`);
        return;
      }
      let body: Record<string, unknown>;
      try {
        body = res.json();
      } catch {
        return void problems.push(`${where}: invalid JSON ${res.body.slice(0, 200)}`);
      }
      const keys = Object.keys(body).sort().join(',');
      if (keys !== 'code,data,msg,timestamp') return void problems.push(`${where}: keys ${keys}`);
      if (body.code !== res.statusCode || typeof body.msg !== 'string' || !Number.isInteger(body.timestamp))
        problems.push(`${where}: malformed envelope ${res.body.slice(0, 200)}`);
      if (res.statusCode === 200 && body.msg !== '请求成功') problems.push(`${where}: success msg ${String(body.msg)}`);
      if (res.statusCode !== 200 && (body.data !== null || !(body.msg as string).length))
        problems.push(`${where}: error envelope ${res.body.slice(0, 200)}`);
      // No input is a server fault: a failure says what was wrong with the request.
      if (body.msg === SERVER_FAULT) problems.push(`${where}: server fault`);
    };

    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < jobs.length) await check(jobs[next++]);
      }),
    );

    expect(jobs.length).toBeGreaterThanOrEqual(Math.min(TOTAL_REQUESTS, routes.length * MIN_PER_ROUTE));
    expect(problems.slice(0, 20), `${problems.length} problems with FUZZ_SEED=${SEED}`).toEqual([]);
    expect(log.lines.slice(0, 3), 'error-level log lines').toEqual([]);
    // Valid values are in the mix, so some requests succeed: the fuzz is not just bouncing off validation.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(jobs.length / 20);
    expect((await t.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
  });
});

/**
 * Requests Node's HTTP parser or the CORS plugin refuses before any route runs, sent over raw keep-alive sockets,
 * each pipelined behind an ordinary request: every answer must be the envelope, and the ordinary request before it
 * must still get its whole 200 answer (no reset of another request on the connection).
 */
describe('public API over raw keep-alive sockets', () => {
  let t: TestInstance;
  let port: number;
  beforeAll(async () => {
    const db = await freshDb('sqlite');
    const app = await buildApp({ config: testConfig(), db, logger: false });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
    t = {
      app,
      db,
      close: async () => {
        await app.close();
        await db.close();
      },
    };
  });
  afterAll(() => t.close());

  /** Sends `raw` on one connection and reads until the server closes it (or 5 s pass). */
  function exchange(raw: Buffer): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      const s = net.connect(port, '127.0.0.1', () => s.end(raw));
      s.setTimeout(5000, () => s.destroy());
      s.on('data', (d) => chunks.push(d));
      s.on('error', reject);
      s.on('close', () => resolve(Buffer.concat(chunks)));
    });
  }

  /** Splits a byte stream of HTTP/1.1 responses (content-length framed) into status and body. */
  function responses(data: Buffer): Array<{ status: number; type: string; body: string }> {
    const out: Array<{ status: number; type: string; body: string }> = [];
    let at = 0;
    while (at < data.length) {
      const end = data.indexOf('\r\n\r\n', at);
      if (end < 0) throw new Error(`truncated response: ${data.subarray(at, at + 200).toString('latin1')}`);
      const head = data.subarray(at, end).toString('latin1');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? NaN);
      if (!Number.isFinite(length)) throw new Error(`response without content-length: ${head}`);
      out.push({
        status,
        type: /\r\ncontent-type: *([^\r]+)/i.exec(head)?.[1] ?? '',
        body: data.subarray(end + 4, end + 4 + length).toString('utf8'),
      });
      at = end + 4 + length;
    }
    return out;
  }

  const ordinary = Buffer.from('GET /api/bmi?height=170&weight=60 HTTP/1.1\r\nHost: t\r\n\r\n');
  const shapes: Array<[string, Buffer, number]> = [
    [
      'a 16 KB URL',
      Buffer.from(`GET /api/license-plate?keyword=${'a'.repeat(16 * 1024)} HTTP/1.1\r\nHost: t\r\n\r\n`),
      431,
    ],
    [
      'a 20 KB header',
      Buffer.from(`GET /api/bmi?height=170&weight=60 HTTP/1.1\r\nHost: t\r\nX-Big: ${'b'.repeat(20 * 1024)}\r\n\r\n`),
      431,
    ],
    ['a malformed request line', Buffer.from('GARBAGE\r\n\r\n'), 400],
    ['an unknown HTTP version', Buffer.from('GET /api/bmi HTTP/1.x\r\nHost: t\r\n\r\n'), 400],
    ['a bad header line', Buffer.from('GET /api/bmi HTTP/1.1\r\nHost t\r\n\r\n'), 400],
    [
      'an OPTIONS that is not a preflight',
      Buffer.from('OPTIONS /api/bmi HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n'),
      400,
    ],
  ];

  it.each(shapes)(
    'answers %s with the envelope, after the earlier request’s whole answer',
    async (_name, bad, status) => {
      const all = responses(await exchange(Buffer.concat([ordinary, bad])));
      expect(all.length).toBe(2);
      expect(all[0].status).toBe(200);
      expect(JSON.parse(all[0].body)).toMatchObject({ code: 200, data: { category: '正常' } });
      expect(all[1].status).toBe(status);
      expect(all[1].type).toMatch(/^application\/json/);
      const body = JSON.parse(all[1].body);
      expect(Object.keys(body).sort()).toEqual(['code', 'data', 'msg', 'timestamp']);
      expect(body).toMatchObject({ code: status, data: null });
    },
  );

  it('answers raw UTF-8 in the query, as people type it into curl, normally', async () => {
    const raw = Buffer.concat([
      Buffer.from('GET /api/license-plate?keyword='),
      Buffer.from('京A', 'utf8'),
      Buffer.from(' HTTP/1.1\r\nHost: t\r\n\r\n'),
    ]);
    const all = responses(await exchange(Buffer.concat([ordinary, raw])));
    expect(all.map((r) => r.status)).toEqual([200, 200]);
    expect(JSON.parse(all[1].body).data).toEqual([expect.objectContaining({ prefix: '京A', city: '北京市' })]);
  });
});
