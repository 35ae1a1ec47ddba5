/**
 * The hitokoto.cn drop-in as a blog embeds it, in Debian's headless Chromium (playwright-core): a page on another
 * origin loads `/hitokoto/?encode=js`, JSONP and fetch() exactly as it would from v1.hitokoto.cn, and a crafted
 * `select` (which on hitokoto.cn runs code on the embedding page) does not. Skipped with a note when /usr/bin/chromium
 * is missing (a failure under TIANJI_E2E=1).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from '../../../test/chromium.js';
import { useTestApp } from './helpers.js';

const HAN = /^\p{Script=Han}[^\uFFFD]*$/u;

describe.skipIf(!hasChromium)('the hitokoto.cn drop-in embedded in a page', { timeout: 60_000 }, () => {
  let base: string;
  /** The embedding page: served by a server of its own, another origin (a page Chromium does not see coming from a
   * loopback address may not load one at all, so a page faked by interception would test that rule instead of ours). */
  let blogServer: http.Server;
  let blogBase: string;
  let nextPage = '';
  let browser: Browser;
  const t = useTestApp('sqlite');
  beforeAll(async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    base = `http://127.0.0.1:${port}`;
    blogServer = http.createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(nextPage),
    );
    await new Promise<void>((resolve) => blogServer.listen(0, '127.0.0.1', resolve));
    blogBase = `http://127.0.0.1:${(blogServer.address() as AddressInfo).port}/`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    blogServer?.close();
  });

  /** A page of another site with `body`, loaded until the scripts it loads have run; `errors` gathers its uncaught ones. */
  async function blog(body: string, errors: string[] = []): Promise<Page> {
    const page = await browser.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    nextPage = `<!doctype html><html><body>${body}</body></html>`;
    await page.goto(blogBase, { waitUntil: 'load' });
    return page;
  }

  it('encode=js fills .hitokoto, in UTF-8 and in GBK', async () => {
    const page = await blog(
      `<p class="hitokoto"></p><p id="gbk"></p>` +
        `<script src="${base}/hitokoto/?encode=js"></script>` +
        `<script src="${base}/hitokoto/?encode=js&charset=gbk&select=%23gbk"></script>`,
    );
    expect(await page.textContent('.hitokoto')).toMatch(HAN);
    expect(await page.textContent('#gbk')).toMatch(HAN);
    await page.close();
  });

  it('a hostile select runs no code on the embedding page', async () => {
    // Pasted in unescaped (as hitokoto.cn does) this is a valid call that runs the assignment on its way.
    const hostile = ".hitokoto'+(window.pwned=true,'')+'";
    const errors: string[] = [];
    const page = await blog(
      `<p class="hitokoto"></p><script>window.pwned=false</script>` +
        `<script src="${base}/hitokoto/?encode=js&select=${encodeURIComponent(hostile)}"></script>`,
      errors,
    );
    expect(await page.evaluate(() => (window as { pwned?: boolean }).pwned)).toBe(false);
    // The selector reached querySelector as the text it was: not a valid selector, so it throws, and that is all.
    expect(errors.join('\n')).toContain('is not a valid selector');
    expect(await page.textContent('.hitokoto')).toBe('');
    await page.close();
  });

  it('JSONP calls the page’s function with the sentence object, and fetch() reads JSON across origins', async () => {
    const page = await blog(
      `<script>function show(d){document.body.dataset.jsonp=d.hitokoto+'|'+d.type}</script>` +
        `<script src="${base}/hitokoto/?callback=show&c=i"></script>`,
    );
    expect(await page.getAttribute('body', 'data-jsonp')).toMatch(/^\p{Script=Han}.*\|i$/u);
    const fetched = await page.evaluate(async (url) => {
      const r = await fetch(url);
      const d = await r.json();
      return `${d.hitokoto}|${d.type}`;
    }, `${base}/hitokoto/?c=k`);
    expect(fetched).toMatch(/^\p{Script=Han}.*\|k$/u);
    await page.close();
  });
});
