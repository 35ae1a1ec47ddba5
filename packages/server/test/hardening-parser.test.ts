/**
 * What reaches the server past Node's HTTP parser, over real sockets: a raw-UTF-8 URL (re-run by
 * http/client-errors.ts) keeps its caller's address, requests pipelined before a refused one are all answered, and
 * the answers Node used to give bare (no Host, an unknown Expect, CONNECT) come in the envelope.
 */
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import type { Db } from '../src/db/index.js';
import { freshDb, testConfig } from './helpers.js';
import { exchange, responses, type RawResponse } from './raw-http.js';

/** A fresh app listening on 127.0.0.1 for the enclosing describe block (`setup` adds to it first); `port()` in tests. */
function useListeningApp(env: Record<string, string> = {}, setup?: (app: FastifyInstance) => void) {
  let app: FastifyInstance | undefined;
  let db: Db | undefined;
  let port = 0;
  beforeAll(async () => {
    db = await freshDb('sqlite');
    app = await buildApp({ config: testConfig(env), db, logger: false });
    setup?.(app);
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });
  return { port: () => port };
}

const get = (target: Buffer | string, headers = 'Host: t\r\n') =>
  Buffer.concat([Buffer.from('GET '), Buffer.from(target), Buffer.from(` HTTP/1.1\r\n${headers}\r\n`)]);
/** `/api/license-plate?keyword=京A` with the bytes as people type them into curl, and percent-encoded. */
const rawPlate = get(Buffer.concat([Buffer.from('/api/license-plate?keyword='), Buffer.from('京A')]));
const encodedPlate = get('/api/license-plate?keyword=%E4%BA%ACA', 'Host: t\r\nConnection: close\r\n');

/** One request on its own connection from `from`; its one answer. */
async function ask(port: number, raw: Buffer, from: string): Promise<RawResponse> {
  const all = responses(await exchange(port, raw, { localAddress: from }));
  expect(all).toHaveLength(1);
  return all[0];
}

function expectEnvelope(res: RawResponse, status: number, msg: RegExp) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(res.body);
  expect(Object.keys(body).sort()).toEqual(['code', 'data', 'msg', 'timestamp']);
  expect(body).toMatchObject({ code: status, data: null, msg });
}

describe('a raw-UTF-8 URL is answered as coming from its caller', () => {
  // 127.0.0.7 is a proxy; the rate-limit callers are not, so they are counted by their own address.
  const { port } = useListeningApp({ RATE_LIMIT_MAX: '5', TRUST_PROXY: '127.0.0.7' });
  // `ip=` an ideographic space (as a Chinese keyboard types it): trimmed to empty, so the caller's own address.
  const ownRegion = get(
    Buffer.concat([Buffer.from('/api/ip-region?ip='), Buffer.from('\u3000')]),
    'Host: t\r\nX-Forwarded-For: 8.8.8.8\r\n',
  );

  it('counts against the caller’s own limit, one bucket with its percent-encoded requests', async () => {
    const statuses: number[] = [];
    const remaining: string[] = [];
    for (const req of [rawPlate, encodedPlate, rawPlate, encodedPlate, rawPlate, encodedPlate, rawPlate]) {
      const res = await ask(port(), req, '127.0.0.2');
      statuses.push(res.status);
      remaining.push(res.headers['ratelimit-remaining']);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(remaining.slice(0, 5)).toEqual(['4', '3', '2', '1', '0']);
  });

  it('one caller past its limit leaves another’s first raw-UTF-8 request alone', async () => {
    for (let i = 0; i < 6; i++) await ask(port(), rawPlate, '127.0.0.4');
    expect((await ask(port(), rawPlate, '127.0.0.4')).status).toBe(429);
    const other = await ask(port(), rawPlate, '127.0.0.5');
    expect(other.status).toBe(200);
    expect(other.headers['ratelimit-remaining']).toBe('4');
    expect(JSON.parse(other.body).data).toEqual([expect.objectContaining({ prefix: '京A', city: '北京市' })]);
  });

  it('/api/ip-region without an ip reports the caller’s address, whatever X-Forwarded-For says', async () => {
    const res = await ask(port(), ownRegion, '127.0.0.6');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).data).toEqual({ status: 'fail', message: 'reserved range', query: '127.0.0.6' });
  });

  it('X-Forwarded-For counts as TRUST_PROXY says: from the trusted proxy only', async () => {
    const proxied = await ask(port(), ownRegion, '127.0.0.7');
    expect(JSON.parse(proxied.body).data).toMatchObject({ status: 'success', query: '8.8.8.8' });
    const direct = await ask(port(), ownRegion, '127.0.0.8');
    expect(JSON.parse(direct.body).data).toMatchObject({ query: '127.0.0.8' });
  });

  it('a raw-UTF-8 name whose bytes include A0 (张 is E5 BC A0) is answered like any other', async () => {
    const name = get(Buffer.concat([Buffer.from('/api/mood-quote?style=flattery&name='), Buffer.from('张三')]));
    const res = await ask(port(), name, '127.0.0.10');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).data.content).toContain('张三');
  });

  it('without Host, HTTP/1.1 is refused as any request would be', async () => {
    const res = await ask(
      port(),
      get(Buffer.concat([Buffer.from('/api/license-plate?keyword='), Buffer.from('京A')]), ''),
      '127.0.0.9',
    );
    expectEnvelope(res, 400, /缺少 Host 请求头/);
  });
});

describe('over keep-alive connections', () => {
  // An answer that takes a while, so that the client can send more while it is on its way.
  const { port } = useListeningApp({}, (app) =>
    app.get('/slow-for-test', async () => {
      await sleep(300);
      return 'slow';
    }),
  );
  const bmi = '/api/bmi?height=170&weight=60';

  describe('requests pipelined before one the parser refuses', () => {
    const valid = [
      get('/api/bmi?height=170&weight=60'),
      get('/api/license-plate?keyword=%E4%BA%ACA'),
      get('/api/ip-region?ip=8.8.8.8'),
      get('/api/bmi?height=180&weight=90'),
    ];

    it.each([
      ['a malformed request line', Buffer.from('GARBAGE\r\n\r\n'), 400, /请求格式错误/],
      [
        'a header block over 16 KB',
        get('/api/bmi?height=1&weight=1', `Host: t\r\nX-Big: ${'b'.repeat(20_000)}\r\n`),
        431,
        /16 KB/,
      ],
    ])(
      'are all answered, in order, before %s gets its envelope and the connection closes',
      async (_name, bad, status, msg) => {
        for (let round = 0; round < 5; round++) {
          const all = responses(await exchange(port(), Buffer.concat([...valid, bad])));
          expect(all.map((r) => r.status)).toEqual([200, 200, 200, 200, status]);
          expect(JSON.parse(all[0].body).data).toMatchObject({ category: '正常' });
          expect(JSON.parse(all[1].body).data).toEqual([expect.objectContaining({ prefix: '京A' })]);
          expect(JSON.parse(all[2].body).data).toMatchObject({ query: '8.8.8.8' });
          expect(JSON.parse(all[3].body).data).toMatchObject({ category: '超重' });
          expectEnvelope(all[4], status, msg);
          expect(all[4].headers.connection).toBe('close');
        }
      },
    );

    it('are all answered before a raw-UTF-8 request re-run after them', async () => {
      const all = responses(await exchange(port(), Buffer.concat([...valid, rawPlate])));
      expect(all.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(JSON.parse(all[4].body).data).toEqual([expect.objectContaining({ prefix: '京A', city: '北京市' })]);
    });

    it('a raw-UTF-8 request keeps its answer when the client sends more behind it before it is ready', async () => {
      // The parser, stuck on the raw bytes, refuses each later packet too: that must not answer (and close) first.
      const slow = get(Buffer.concat([Buffer.from('/slow-for-test?name='), Buffer.from('张三')]));
      const all = responses(await exchange(port(), [slow, get(bmi), get(bmi)]));
      expect(all.map((r) => [r.status, r.body])).toEqual([[200, 'slow']]);
    });
  });

  describe('what Node used to answer bare', () => {
    it('an HTTP/1.1 request without Host gets a 400 envelope naming Host, and the connection closes', async () => {
      const all = responses(await exchange(port(), Buffer.concat([get(bmi), get(bmi, '')])));
      expect(all.map((r) => r.status)).toEqual([200, 400]);
      expectEnvelope(all[1], 400, /缺少 Host 请求头/);
      expect(all[1].headers.connection).toBe('close');
    });

    it('the same on the admin API, in its error shape', async () => {
      const [res] = responses(await exchange(port(), get('/api/auth/me', '')));
      expect(res.status).toBe(400);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(JSON.parse(res.body)).toEqual({ code: 'VALIDATION_ERROR', message: expect.stringMatching(/Host/) });
    });

    it('a request with two Host headers gets a 400 envelope naming Host, and the connection closes (issue 50)', async () => {
      for (const hosts of ['Host: t\r\nHost: evil.example\r\n', 'Host: t\r\nhOsT: t\r\n']) {
        const all = responses(await exchange(port(), Buffer.concat([get(bmi), get(bmi, hosts), get(bmi)])));
        expect(all.map((r) => r.status)).toEqual([200, 400]);
        expectEnvelope(all[1], 400, /Host 请求头重复/);
        expect(all[1].headers['access-control-allow-origin']).toBe('*');
        expect(all[1].headers.connection).toBe('close');
      }
      const [admin] = responses(await exchange(port(), get('/api/auth/me', 'Host: a\r\nHost: b\r\n')));
      expect(admin.status).toBe(400);
      expect(JSON.parse(admin.body)).toEqual({ code: 'VALIDATION_ERROR', message: expect.stringMatching(/Host/) });
    });

    it('an HTTP/1.0 request needs no Host', async () => {
      const [res] = responses(await exchange(port(), `GET ${bmi} HTTP/1.0\r\n\r\n`));
      expect(res.status).toBe(200);
    });

    it('an Expect other than 100-continue gets a 417 envelope naming Expect', async () => {
      const all = responses(
        await exchange(
          port(),
          Buffer.concat([get(bmi, 'Host: t\r\nExpect: 999-x\r\n'), get(bmi, 'Host: t\r\nConnection: close\r\n')]),
        ),
      );
      expect(all.map((r) => r.status)).toEqual([417, 200]);
      expectEnvelope(all[0], 417, /Expect.*100-continue/);
    });

    it('CONNECT gets a 405 envelope after the answer before it, and the connection closes', async () => {
      const connect = Buffer.from('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
      const all = responses(await exchange(port(), Buffer.concat([get(bmi), connect])));
      expect(all.map((r) => r.status)).toEqual([200, 405]);
      expectEnvelope(all[1], 405, /CONNECT/);
      expect(all[1].headers.connection).toBe('close');
    });
  });
});
