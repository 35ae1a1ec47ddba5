import net from 'node:net';
import type { InjectOptions } from 'fastify';
import type { AddressInfo } from 'node:net';
import { beforeAll, expect, it } from 'vitest';
import { bearer, describeEachDb, useTestApp, login } from './helpers.js';

describeEachDb('Cache-Control: no-store on every admin API response', (dialect) => {
  const t = useTestApp(dialect);
  let token: string;
  beforeAll(async () => {
    token = (await login(t.app)).accessToken;
  });

  it.each([
    [
      'sign-in that succeeds',
      { method: 'POST', url: '/api/auth/login', payload: { username: 'admin', password: 'admin-password-123' } },
      200,
    ],
    [
      'sign-in that fails',
      { method: 'POST', url: '/api/auth/login', payload: { username: 'admin', password: 'wrong-password' } },
      401,
    ],
    ['refresh with a bad token', { method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: 'nope' } }, 401],
    ['a request without a token', { url: '/api/auth/me' }, 401],
    ['a validation error', { method: 'POST', url: '/api/auth/login', payload: {} }, 400],
    ['an unknown admin path', { url: '/api/users/a/b/c' }, 404],
    ['a malformed admin path', { url: '/api/users/%E0%A4%A' }, 400],
  ] satisfies Array<[string, InjectOptions, number]>)('%s', async (_name, req, status) => {
    const res = await t.app.inject(req);
    expect(res.statusCode).toBe(status);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it.each([
    '/api/auth/me',
    '/api/users',
    '/api/users/export',
    '/api/audit-logs',
    '/api/admin/content/jokes?pageSize=1',
    '/api/admin/usage/summary',
  ])('signed-in GET %s', async (url) => {
    const res = await t.app.inject({ url, headers: bearer(token) });
    expect(res.statusCode).toBeLessThan(500);
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

/** Sends raw bytes and reads the whole answer until the server closes the connection. */
function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const s = net.connect(port, '127.0.0.1', () => s.write(text));
    s.on('data', (c) => chunks.push(c));
    s.on('error', reject);
    s.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

describeEachDb('oversized headers', (dialect) => {
  const t = useTestApp(dialect);
  let port: number;
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });

  const big = `Bearer ${'a'.repeat(20 * 1024)}`;

  it('a 20 KB Authorization on the admin API answers 431 in the admin error shape, not cached', async () => {
    const res = await rawRequest(port, `GET /api/auth/me HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${big}\r\n\r\n`);
    const [head, body] = res.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(head.toLowerCase()).toContain('cache-control: no-store');
    expect(head.toLowerCase()).toContain('content-type: application/json');
    expect(JSON.parse(body)).toEqual({ code: 'HEADERS_TOO_LARGE', message: expect.stringContaining('请求头过大') });
  });

  it('the same on the public API answers in its envelope', async () => {
    const res = await rawRequest(
      port,
      `GET /api/bmi?height=170&weight=60 HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${big}\r\n\r\n`,
    );
    const [head, body] = res.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(body)).toMatchObject({ code: 431, data: null, msg: expect.stringContaining('请求头过大') });
  });
});
