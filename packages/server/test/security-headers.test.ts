/**
 * Issue 31, decision (b): an API answer (JSON, images, redirects — anything but a page) carries the OWASP REST Security
 * Cheat Sheet's headers and no more; the pages a browser renders (/admin, /m, /docs) keep helmet's full set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestInstance, type TestInstance } from './helpers.js';

/** Headers about the connection or the body, and those CORS and the rate limit add: not security headers. */
const NOT_SECURITY =
  /^(date|connection|keep-alive|content-length|content-type|etag|location|vary|retry-after|access-control-.*|ratelimit-.*)$/;
const securityNames = (headers: Record<string, unknown>) =>
  Object.keys(headers)
    .filter((name) => !NOT_SECURITY.test(name))
    .sort();

const API_SET = ['cache-control', 'content-security-policy', 'x-content-type-options', 'x-frame-options'];

/** helmet's defaults, as the app configures them (CORP opened so the public images may be embedded anywhere). */
const PAGE_SET = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

const API_ANSWERS = [
  '/healthz',
  '/api/bmi?height=170&weight=60',
  '/api/almanac?date=2026-11-21',
  '/api/random-avatar/image?seed=a&format=png',
  '/api/auth/me',
  '/api/nope',
  '/openapi.json',
  '/metrics',
  '/',
];

describe('security headers', () => {
  let t: TestInstance;
  let proxied: TestInstance;
  beforeAll(async () => {
    t = await getTestInstance('sqlite');
    proxied = await getTestInstance('sqlite', { TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    await t?.close();
    await proxied?.close();
  });

  it.each(API_ANSWERS)('an API answer carries exactly the REST set (%s)', async (url) => {
    const res = await t.app.inject(url);
    expect(String(res.headers['content-type'] ?? 'none'), url).not.toContain('text/html');
    expect(securityNames(res.headers), url).toEqual(API_SET);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it("keeps a route's own Cache-Control and ETag; no-store where the route sets none", async () => {
    const cached = await t.app.inject('/api/almanac?date=2026-11-21');
    expect(cached.headers['cache-control']).toMatch(/^public, max-age=\d+/);
    expect(cached.headers.etag).toBeTruthy();
    expect((await t.app.inject('/api/hitokoto')).headers['cache-control']).toBe('no-store');
    expect((await t.app.inject('/healthz')).headers['cache-control']).toBe('no-store');
  });

  it('adds Strict-Transport-Security only when the request came over HTTPS per TRUST_PROXY', async () => {
    const https = { 'x-forwarded-proto': 'https' };
    const viaProxy = await proxied.app.inject({ url: '/api/bmi?height=170&weight=60', headers: https });
    expect(securityNames(viaProxy.headers)).toEqual([...API_SET, 'strict-transport-security'].sort());
    expect(viaProxy.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    const admin = await proxied.app.inject({ url: '/api/auth/me', headers: https });
    expect(admin.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    // Plain HTTP through the proxy, and a forged header where no proxy is trusted: no HSTS.
    const plain = await proxied.app.inject({ url: '/healthz', headers: { 'x-forwarded-proto': 'http' } });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const forged = await t.app.inject({ url: '/healthz', headers: https });
    expect(forged.headers['strict-transport-security']).toBeUndefined();
  });

  it.each(['/admin/', '/admin/login', '/m/', '/m', '/docs/', '/docs'])(
    "a page keeps helmet's full set (%s)",
    async (url) => {
      const res = await t.app.inject(url);
      for (const name of PAGE_SET) expect(res.headers[name], `${url} ${name}`).toBeDefined();
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(String(res.headers['content-security-policy'])).toContain("default-src 'self'");
      // Images of the public API may be embedded on other sites.
      expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    },
  );
});
