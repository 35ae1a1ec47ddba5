/**
 * The API reference at /docs in Debian's headless Chromium (playwright-core): it must load nothing from another host
 * (the CSP would block it, and the page must work offline). Skipped when /usr/bin/chromium is missing.
 */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './helpers.js';

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
});
