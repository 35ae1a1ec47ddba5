/**
 * The server serves the phone app at /m/ (a real server: buildApp with its security headers), installable: the
 * page links its manifest, the manifest's icons are PNGs, the service worker caches the app shell only, and any
 * page URL under /m/ gets the app (SPA fallback) while a missing hashed asset is a 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBuilt } from '../../../test/builds.js';
import { getTestInstance, type TestInstance } from '../../../packages/server/test/helpers.js';
import { initialJs, BUDGET_GZIP } from '../scripts/initial-js-size.mjs';

describe('the phone app at /m/', { timeout: 120_000 }, () => {
  let t: TestInstance;
  beforeAll(async () => {
    expectBuilt('mobile');
    t = await getTestInstance('sqlite');
  });
  afterAll(async () => t?.close());

  it('GET /m/ and any page URL under it serve the app, revalidated, under a CSP without inline scripts', async () => {
    for (const url of ['/m/', '/m', '/m/users', '/m/users/0b7d6c1e-0000-4000-8000-000000000000', '/m/me?x=1']) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toContain('text/html');
      expect(res.body, url).toContain('<link rel="manifest" href="/m/manifest.webmanifest"');
      expect(res.headers['cache-control'], url).toBe('no-cache');
      const scriptSrc = /script-src ([^;]*)/.exec(String(res.headers['content-security-policy']))?.[1] ?? '';
      expect(scriptSrc, url).toContain("'self'");
      expect(scriptSrc, url).not.toContain('unsafe-inline');
    }
    expect((await t.app.inject('/m/assets/gone-123.js')).statusCode).toBe(404);
  });

  it('the manifest makes it installable: standalone, scoped to /m/, with PNG icons that exist', async () => {
    const res = await t.app.inject('/m/manifest.webmanifest');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/manifest\+json/);
    const m = res.json();
    expect(m).toMatchObject({ start_url: '/m/', scope: '/m/', display: 'standalone', lang: 'zh-CN' });
    expect(m.icons.map((i: { sizes: string }) => i.sizes)).toEqual(['192x192', '512x512']);
    for (const icon of m.icons as Array<{ src: string }>) {
      const png = await t.app.inject(icon.src);
      expect(png.statusCode, icon.src).toBe(200);
      expect(png.headers['content-type']).toBe('image/png');
      expect(png.rawPayload.subarray(1, 4).toString('ascii')).toBe('PNG');
    }
  });

  it('the service worker is revalidated and caches only the app shell, never an API answer', async () => {
    const res = await t.app.inject('/m/sw.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('javascript');
    expect(res.headers['cache-control']).toBe('no-cache');
    const shell: string[] = JSON.parse(/const SHELL = (\[.*\]);/.exec(res.body)?.[1] ?? '[]');
    expect(shell).toContain('/m/');
    expect(shell).toContain('/m/manifest.webmanifest');
    expect(shell.length).toBeGreaterThan(5);
    expect(shell.every((p) => p.startsWith('/m/'))).toBe(true);
    // Every cached file exists: a missing one would make the install fail.
    for (const p of shell) expect((await t.app.inject(p)).statusCode, p).toBe(200);
    // Requests outside /m/ (the API) are left to the network.
    expect(res.body).toContain('!url.pathname.startsWith(BASE)');
  });

  it('the first load stays under the size budget', () => {
    const r = initialJs();
    console.log(`mobile initial JavaScript: ${(r.gzip / 1024).toFixed(1)} KiB gzipped`);
    expect(r.files.length).toBeGreaterThan(0);
    expect(r.gzip).toBeLessThan(BUDGET_GZIP);
  });
});
