/**
 * The documentation site (docs/, VitePress) as the server serves it at /docs/ (built before the run by
 * test/global-setup.ts when missing or older than its sources): every internal link of every page followed (anchors included), and every example request the
 * guides show sent to a real app.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { inlineScriptHashes } from '../src/web/csp-hashes.js';
import { DOCS_DIST } from '../src/web/docs-site.js';
import { expectBuilt, filesUnder as files } from '../../../test/builds.js';
import { useTestApp } from './helpers.js';

const DOCS = path.join(fileURLToPath(new URL('../../../', import.meta.url)), 'docs');
const ROOT = path.dirname(DOCS);

describe('the documentation site at /docs/', { timeout: 60_000 }, () => {
  beforeAll(() => expectBuilt('docs'));
  const t = useTestApp('sqlite');

  const pages = () =>
    files(DOCS_DIST, (f) => f.endsWith('.html')).map((f) => ({
      url: `/docs/${path.relative(DOCS_DIST, f).split(path.sep).join('/')}`,
      html: fs.readFileSync(f, 'utf8'),
    }));

  it('has the pages the guide promises, in Chinese', async () => {
    for (const [url, title] of [
      ['/docs/', '天机 tianji'],
      ['/docs/guide/quick-start.html', '快速开始'],
      ['/docs/guide/public-api.html', '公共接口'],
      ['/docs/guide/hitokoto.html', '从 hitokoto.cn 迁移'],
      ['/docs/guide/permissions.html', '权限模型'],
      ['/docs/guide/sessions.html', '会话与安全'],
      ['/docs/deploy.html', 'Deploying tianji'],
      ['/docs/guide/clients.html', '客户端'],
      ['/docs/guide/cli-reference.html', '命令行参考'],
      ['/docs/guide/benchmarks.html', '基准测试'],
      ['/docs/api/', 'API 参考'],
    ]) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.body, url).toContain(title);
      expect(res.body, url).toMatch(/<html lang="zh-CN"/);
    }
    const bare = await t.app.inject('/docs');
    expect([bare.statusCode, bare.headers.location]).toEqual([301, '/docs/']);
  });

  it('follows every internal link and anchor of every page to something the server answers', async () => {
    const ids = new Map<string, Set<string>>();
    const idsOf = async (url: string) => {
      let set = ids.get(url);
      if (!set) {
        const body = (await t.app.inject(url)).body;
        set = new Set([...body.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
        ids.set(url, set);
      }
      return set;
    };
    const broken: string[] = [];
    let followed = 0;
    for (const page of pages()) {
      for (const [, attr, raw] of page.html.matchAll(/\s(href|src)="([^"]+)"/g)) {
        if (/^(https?:)?\/\//.test(raw) || /^(mailto|data|javascript):/.test(raw)) continue;
        const target = new URL(raw.replace(/&amp;/g, '&'), `http://docs.test${page.url}`);
        const url = target.pathname + target.search;
        const res = await t.app.inject(url);
        followed++;
        if (res.statusCode !== 200) {
          broken.push(`${page.url}: ${attr}="${raw}" → ${res.statusCode}`);
          continue;
        }
        const anchor = decodeURIComponent(target.hash.slice(1));
        if (anchor && attr === 'href' && !(await idsOf(url)).has(anchor))
          broken.push(`${page.url}: ${raw} → no element with id "${anchor}"`);
      }
    }
    expect(broken).toEqual([]);
    expect(followed).toBeGreaterThan(200);
  });

  it('requests nothing from another host: no script, style, font or image from outside', () => {
    for (const page of pages())
      for (const [, tag, url] of page.html.matchAll(
        /<(script|link|img)\b[^>]*\b(?:src|href)="((?:https?:)?\/\/[^"]+)"/g,
      ))
        expect.fail(`${page.url} loads ${url} (<${tag}>)`);
  });

  it('runs every example request of the guides against the server', async () => {
    const examples = files(DOCS, (f) => f.endsWith('.md')).flatMap((f) =>
      [...fs.readFileSync(f, 'utf8').matchAll(/^curl '(http:\/\/localhost:3000(\/[^']*))'$/gm)].map((m) => ({
        file: path.relative(ROOT, f),
        url: m[2],
      })),
    );
    expect(examples.length).toBeGreaterThan(30);
    for (const { file, url } of examples) {
      const res = await t.app.inject(url);
      expect(res.statusCode, `${file}: ${url}`).toBe(200);
      if (String(res.headers['content-type']).startsWith('application/json') && 'code' in res.json())
        expect(res.json().code, `${file}: ${url}`).toBe(200);
    }
  });

  it('serves pages revalidated, with their inline scripts allowed by hash, and assets compressed for a year', async () => {
    const page = await t.app.inject('/docs/guide/permissions.html');
    expect(page.headers['cache-control']).toBe('no-cache');
    const csp = String(page.headers['content-security-policy']);
    for (const hash of inlineScriptHashes(page.body)) expect(csp).toContain(hash);
    expect(csp).not.toContain("'unsafe-inline' ");
    const script = /<script type="module" src="(\/docs\/assets\/[^"]+\.js)"/.exec(page.body)![1];
    const asset = await t.app.inject({ url: script, headers: { 'accept-encoding': 'br, gzip' } });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-encoding']).toBe('br');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const again = await t.app.inject({
      url: script,
      headers: { 'accept-encoding': 'br, gzip', 'if-none-match': String(asset.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('answers an unknown page with the site’s own 404 page', async () => {
    const res = await t.app.inject('/docs/guide/no-such-page.html');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('404');
  });

  it('the API reference reads the compressed OpenAPI document, every summary Chinese first, public groups first', async () => {
    const res = await t.app.inject({ url: '/openapi.json', headers: { 'accept-encoding': 'br' } });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.rawPayload.length).toBeLessThan(120_000);
    const doc = JSON.parse(zlib.brotliDecompressSync(res.rawPayload).toString()) as {
      tags: Array<{ name: string }>;
      paths: Record<string, Record<string, { summary?: string }>>;
    };
    expect(doc.tags[0].name).toBe('每日推荐 Daily');
    for (const [p, methods] of Object.entries(doc.paths))
      for (const [m, op] of Object.entries(methods))
        expect(op.summary, `${m.toUpperCase()} ${p}`).toMatch(/^\p{Script=Han}|^[A-Z]{2,4} \p{Script=Han}/u);
  });
});
