/**
 * The API reference at /docs in Debian's headless Chromium (playwright-core): it must load nothing from another host
 * (the CSP would block it, and the page must work offline). Skipped when /usr/bin/chromium is missing.
 */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOOKUP_GROUPS } from '../src/plugins/lookup-platform.js';
import { useTestApp } from './helpers.js';
import { type DocParam, snippetQuery } from './scalar-example-request.js';

const CHROMIUM = '/usr/bin/chromium';

describe.skipIf(!fs.existsSync(CHROMIUM))('the API reference page /docs', { timeout: 60_000 }, () => {
  let base: string;
  const t = useTestApp('sqlite');
  beforeAll(async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });

  it('renders while requesting nothing from any other host', async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage();
      const outside: string[] = [];
      page.on('request', (req) => {
        if (!req.url().startsWith(base) && !req.url().startsWith('data:')) outside.push(req.url());
      });
      await page.goto(`${base}/docs`, { waitUntil: 'networkidle' });
      await page.waitForSelector('text=tianji', { timeout: 20_000 });
      expect(outside).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('shows for every public endpoint a curl command that answers 200, as scalar-example-request.ts computes it', async () => {
    const doc = (await t.app.inject('/openapi.json')).json() as {
      paths: Record<string, { get?: { tags?: string[]; summary: string; parameters?: DocParam[] } }>;
    };
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    const curls = new Map<string, string>();
    try {
      const page = await browser.newPage();
      await page.goto(`${base}/docs`, { waitUntil: 'networkidle' });
      await page.waitForSelector('text=tianji', { timeout: 20_000 });
      // Opening a group and one of its operations renders the whole group's sections, curl examples included.
      for (const group of Object.values(LOOKUP_GROUPS)) {
        const first = Object.values(doc.paths).find((item) => item.get?.tags?.includes(group.name))!.get!;
        await page.getByText(group.name, { exact: true }).first().dispatchEvent('click');
        await page.getByText(first.summary, { exact: true }).first().dispatchEvent('click');
        await page.waitForTimeout(1500);
        const shown = await page.evaluate(() =>
          Array.from(document.querySelectorAll('pre, code'), (e) => e.textContent?.trim() ?? ''),
        );
        for (const c of shown.filter((x) => x.startsWith('curl '))) {
          const url = new URL(/^curl '?([^'\s]+)/.exec(c)![1]);
          curls.set(url.pathname, url.search);
        }
      }
    } finally {
      await browser.close();
    }
    const failed: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      if (!item.get?.tags?.some((tag) => Object.values(LOOKUP_GROUPS).some((g) => g.name === tag))) continue;
      const search = curls.get(path);
      expect(search, `${path} has a curl example on the page`).toBeDefined();
      const query = snippetQuery(item.get.parameters ?? []);
      expect(search, path).toBe(query ? `?${query}` : '');
      const res = await t.app.inject(`${path}${search}`);
      if (res.statusCode !== 200) failed.push(`${path}${decodeURIComponent(search!)} → ${res.statusCode} ${res.body}`);
    }
    expect(failed).toEqual([]);
  });
});
