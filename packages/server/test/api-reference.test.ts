/**
 * The API reference at /docs/api/scalar/ (web/api-reference.ts): the page, and Scalar's bundle from one content-addressed
 * path, compressed as the client accepts, cacheable for a year and revalidated by ETag — the bytes Scalar ships.
 * lookup-docs-page.test.ts renders it in Chromium; hardening-csp.test.ts checks its inline script's hash.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerApiReference, scalarBundlePath } from '../src/web/api-reference.js';
import { getTestInstance, type TestInstance } from './helpers.js';

describe('the API reference bundle', () => {
  let t: TestInstance;
  let script: string;
  const shipped = fs.readFileSync(scalarBundlePath());
  beforeAll(async () => {
    t = await getTestInstance('sqlite');
    const page = await t.app.inject('/docs/api/scalar/');
    script = /<script[^>]*\bsrc="([^"]+)"/.exec(page.body)?.[1] ?? '';
  });
  afterAll(() => t.close());

  it('is loaded by the page from a path named after its content', () => {
    expect(script).toMatch(/^js\/scalar\.[0-9a-f]{16}\.js$/);
  });

  it('is a page of ours: titled, reading /openapi.json, revalidated on every visit; /docs and the old bundle path redirect', async () => {
    const page = await t.app.inject('/docs/api/scalar/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.body).toContain('<title>tianji API 参考文档</title>');
    expect(page.body).toContain('"url": "/openapi.json"');
    const bare = await t.app.inject('/docs/api/scalar');
    expect([bare.statusCode, bare.headers.location]).toEqual([301, '/docs/api/scalar/']);
    const old = await t.app.inject('/docs/api/scalar/js/scalar.js');
    expect([old.statusCode, old.headers.location]).toEqual([302, `/docs/api/scalar/${script}`]);
    // Scalar's plugin answered these with a 500 and an empty body: now they are pages the documentation site (built by
    // the global setup for this file: without it, /docs/ answers 503) does not have.
    for (const url of ['/docs/api/scalar/openapi.json', '/docs/api/scalar/openapi.yaml']) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(404);
    }
  });

  it('renders with the @scalar/core version its bundle was released with', () => {
    type Manifest = { dependencies: Record<string, string> };
    const read = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
    // The package exports no package.json: found beside the bundle (dist/js/standalone.js).
    const plugin = read(path.join(path.dirname(scalarBundlePath()), '..', '..', 'package.json'));
    const ours = read(path.join(import.meta.dirname, '..', 'package.json'));
    expect(ours.dependencies['@scalar/core']).toBe(plugin.dependencies['@scalar/core']);
  });

  it.each([
    ['br, gzip', 'br', (b: Buffer) => zlib.brotliDecompressSync(b)],
    ['gzip', 'gzip', (b: Buffer) => zlib.gunzipSync(b)],
    ['', 'identity', (b: Buffer) => b],
  ] as const)(
    'Accept-Encoding "%s" gets %s: Scalar\'s bytes, cacheable for a year',
    async (accept, encoding, decode) => {
      const res = await t.app.inject({
        url: `/docs/api/scalar/${script}`,
        headers: accept ? { 'accept-encoding': accept } : {},
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
      expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers.vary).toBe('accept-encoding');
      expect(decode(res.rawPayload).equals(shipped)).toBe(true);
      if (encoding !== 'identity') expect(res.rawPayload.length).toBeLessThan(shipped.length / 3);
      // The security headers of every answer stay on.
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(String(res.headers['content-security-policy'])).toContain("default-src 'self'");
    },
  );

  it("answers 304 to its own ETag (weak or in a list), and 200 to another encoding's", async () => {
    const url = `/docs/api/scalar/${script}`;
    const first = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    const etag = String(first.headers.etag);
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip', 'if-none-match': inm } });
      expect(res.statusCode, inm).toBe(304);
      expect(res.body).toBe('');
    }
    const br = await t.app.inject({ url, headers: { 'accept-encoding': 'br', 'if-none-match': etag } });
    expect(br.statusCode).toBe(200);
    expect(br.headers.etag).not.toBe(etag);
  });

  it('moves to a new path when the bundle changes (a new Scalar release is never taken from a cache)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-script-'));
    const names = await Promise.all(
      ['console.log(1)', 'console.log(2)'].map(async (text, i) => {
        const file = path.join(dir, `${i}.js`);
        fs.writeFileSync(file, text);
        const app = Fastify();
        const { script: name } = registerApiReference(app, { prefix: '/docs', specUrl: '/x', title: 'x', file });
        const res = await app.inject(`/docs/${name}`);
        expect(res.body).toBe(text);
        await app.close();
        return name;
      }),
    );
    expect(names[0]).not.toBe(names[1]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
