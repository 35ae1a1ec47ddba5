/**
 * The documentation site and the API references in Debian's headless Chromium (playwright-core): each renders what a
 * reader came for and loads nothing from another host (the CSP would block it, and the pages must work offline).
 * Skipped with a note when /usr/bin/chromium is missing (a failure under TIANJI_E2E=1).
 */
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBuilt } from '../../../test/builds.js';
import { hasChromium, launchChromium } from '../../../test/chromium.js';
import { LOOKUP_GROUPS } from '../src/catalogue/lookup-groups.js';
import { useTestApp } from './helpers.js';

describe.skipIf(!hasChromium)('the documentation pages in a browser', { timeout: 90_000 }, () => {
  let base: string;
  let browser: Browser;
  beforeAll(() => expectBuilt('docs'));
  const t = useTestApp('sqlite');
  beforeAll(async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it.each([
    ['/docs/', 'text=快速开始'],
    ['/docs/guide/permissions.html', 'h1:has-text("权限模型")'],
    // The reference: the first group's operations, from /openapi.json, Chinese first.
    ['/docs/api/', '.api-op:has-text("一言 Hitokoto")'],
    ['/docs/api/scalar/', 'text=每日推荐 Daily'],
  ])('%s renders while requesting nothing from any other host', async (url, ready) => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const outside: string[] = [];
      const failed: string[] = [];
      page.on('request', (req) => {
        if (!/^(data|blob):/.test(req.url()) && !req.url().startsWith(base)) outside.push(req.url());
      });
      page.on('requestfailed', (req) => failed.push(req.url()));
      page.on('pageerror', (e) => failed.push(e.message));
      // A refused inline script (its hash missing from the CSP) shows only here. Scalar probes eval and works without.
      page.on('console', (m) => {
        if (/Content Security Policy/.test(m.text()) && !/unsafe-eval/.test(m.text())) failed.push(m.text());
      });
      await page.goto(`${base}${url}`);
      await page.waitForSelector(ready, { timeout: 45_000 });
      // A moment for what the page loads after it renders (Scalar keeps a connection open, so no networkidle).
      await page.waitForTimeout(1500);
      expect(outside).toEqual([]);
      expect(failed).toEqual([]);
      // Nothing that would need the internet: Scalar's SDK generator, its hosted API client, sharing.
      for (const text of ['Generate SDK', 'Open API Client', 'Share'])
        expect(await page.getByText(text, { exact: true }).count(), text).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('the reference sends a public request from the page and shows the answer', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${base}/docs/api/#生活服务-Life-services`);
      const op = page.locator('.api-op', { hasText: '/api/holiday' });
      await op.getByRole('button', { name: '发送请求' }).click();
      await expect.poll(() => op.locator('.result').textContent(), { timeout: 20_000 }).toContain('HTTP 200');
      expect(await op.locator('.result').textContent()).toContain('春节');
    } finally {
      await context.close();
    }
  });

  it('the reference page offers every public endpoint a ready request that answers 200, as the page fills it', async () => {
    const doc = (await t.app.inject('/openapi.json')).json() as {
      paths: Record<string, { get?: { tags?: string[] } }>;
    };
    const context = await browser.newContext();
    const queries = new Map<string, string>();
    try {
      const page = await context.newPage();
      for (const group of Object.values(LOOKUP_GROUPS)) {
        // The page shows one group at a time, chosen by the hash (its name with spaces as dashes).
        await page.goto(`${base}/docs/api/#${group.name.replace(/\s+/g, '-')}`);
        await page.waitForSelector('.api-op .try input', { timeout: 20_000 });
        const shown = await page.$$eval('.api-op .try input', (inputs) =>
          inputs.map((i) => [i.getAttribute('aria-label') ?? '', (i as HTMLInputElement).value] as const),
        );
        for (const [label, value] of shown) queries.set(label.replace(/ 的查询参数$/, ''), value);
      }
    } finally {
      await context.close();
    }
    const failed: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      if (!item.get?.tags?.some((tag) => Object.values(LOOKUP_GROUPS).some((g) => g.name === tag))) continue;
      if (path.includes('{')) continue;
      const query = queries.get(path);
      expect(query, `${path} can be tried on the page`).toBeDefined();
      const res = await t.app.inject(`${path}${query ? `?${query}` : ''}`);
      if (res.statusCode !== 200) failed.push(`${path}?${query} → ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    expect(failed).toEqual([]);
  });
});
