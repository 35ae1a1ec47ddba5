/**
 * A body does not change what an unknown path is (issue 50): under /api an unknown path or method is the 404 of its
 * area whatever the body (malformed JSON, over the body limit, an unknown content type), and under /hitokoto/ every
 * failure is in hitokoto.cn's `{status, message, data: [], ts}` shape, a GET's body ignored as there.
 */
import { describe, expect, it } from 'vitest';
import { useTestApp } from './helpers.js';

const HUGE = Buffer.alloc(3 * 1024 * 1024, 'a');
const BODIES: Array<[label: string, headers: Record<string, string>, payload: string | Buffer]> = [
  ['malformed JSON', { 'content-type': 'application/json' }, '{"a":'],
  ['an empty JSON body', { 'content-type': 'application/json' }, ''],
  ['JSON with __proto__', { 'content-type': 'application/json' }, '{"__proto__":{"x":1}}'],
  ['a body over the limit', { 'content-type': 'application/json' }, HUGE],
  ['an unknown content type', { 'content-type': 'application/x-unknown' }, 'zz'],
  ['a malformed content type', { 'content-type': ';;;' }, 'zz'],
  ['text', { 'content-type': 'text/plain' }, 'hello'],
];
const METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;

describe('a body does not change what an unknown path is', () => {
  const t = useTestApp();

  it('an unknown /api/ path is a 404 envelope whatever its body', async () => {
    for (const [label, headers, payload] of BODIES) {
      for (const method of METHODS) {
        const res = await t.app.inject({ method, url: '/api/no-such-thing?x=1', headers, payload });
        const where = `${method} with ${label}`;
        expect(res.statusCode, where).toBe(404);
        expect(res.json(), where).toEqual({
          code: 404,
          msg: `接口不存在：${method} /api/no-such-thing（未知路径，请查看 /docs）`,
          data: null,
          timestamp: expect.any(Number),
        });
      }
    }
  });

  it('an unknown path under the admin API is its 404 whatever its body; a known route still refuses a bad body', async () => {
    for (const [label, headers, payload] of BODIES) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/no-such-thing', headers, payload });
      expect(res.statusCode, label).toBe(404);
      expect(res.json(), label).toEqual({ code: 'NOT_FOUND', message: 'no route POST /api/auth/no-such-thing' });
    }
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"a":',
    });
    expect(login.statusCode).toBe(400);
    expect(login.json().code).toBe('VALIDATION_ERROR');
  });

  it('under /hitokoto/ another method or path is a 404 in hitokoto.cn’s shape whatever its body', async () => {
    for (const [label, headers, payload] of BODIES) {
      for (const [method, url] of [...METHODS.map((m) => [m, '/hitokoto/']), ['GET', '/hitokoto/nope']] as const) {
        const res = await t.app.inject({ method, url, headers, payload });
        const where = `${method} ${url} with ${label}`;
        expect(res.statusCode, where).toBe(404);
        expect(res.headers['content-type'], where).toMatch(/^application\/json/);
        expect(res.json(), where).toEqual({
          status: 404,
          message: `接口不存在：${method} ${url}（hitokoto.cn 兼容接口只有 GET /hitokoto/）`,
          data: [],
          ts: expect.any(Number),
        });
      }
    }
  });

  it('a GET of /hitokoto/ answers a sentence whatever its body, as hitokoto.cn does', async () => {
    for (const [label, headers, payload] of BODIES) {
      for (const url of ['/hitokoto/', '/hitokoto']) {
        const res = await t.app.inject({ method: 'GET', url, headers, payload });
        expect(res.statusCode, `${url} with ${label}`).toBe(200);
        expect(res.json().hitokoto, `${url} with ${label}`).toEqual(expect.any(String));
      }
    }
  });
});
