import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { getTestInstance, type TestInstance } from './helpers.js';

export interface BrowserSuiteOptions {
  /** Builds the web app under test unless its dist is current (each app's ensureBuilt). */
  build: () => void;
  /** Launches the headless Chromium the app's tests use. */
  launch: () => Promise<Browser>;
  /** Settings of the server (PASSWORD_MIN_LENGTH …). */
  env?: Record<string, string>;
  /** Where `shot` writes screenshots: docs/screenshots of the repository. */
  shots: string;
}

/**
 * A browser suite's server and Chromium, for the enclosing describe block: a fresh app on SQLite listening on a free
 * port, the app built, the browser launched before the first test and both closed after the last. `open` gives a page
 * in a fresh context (Chinese locale, 15 s timeouts, page errors on the console); `shot` saves a screenshot.
 */
export function useBrowserSuite(o: BrowserSuiteOptions) {
  let t: TestInstance | undefined;
  let browser: Browser | undefined;
  let base = '';
  beforeAll(async () => {
    o.build();
    fs.mkdirSync(o.shots, { recursive: true });
    t = await getTestInstance('sqlite', o.env ?? {});
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await o.launch();
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });
  return {
    get t(): TestInstance {
      if (!t) throw new Error('useBrowserSuite: the app starts in beforeAll; read it inside a test');
      return t;
    },
    get base() {
      return base;
    },
    /** A page in a fresh context with `options` (viewport, touch, downloads, …). */
    async open(options: BrowserContextOptions, permissions: string[] = []): Promise<Page> {
      const c = await browser!.newContext({ locale: 'zh-CN', ...options });
      if (permissions.length) await c.grantPermissions(permissions, { origin: base });
      c.on('weberror', (e) => console.error(`[page error] ${e.error().message}`));
      c.setDefaultTimeout(15_000);
      return c.newPage();
    },
    shot: (page: Page, name: string) => page.screenshot({ path: path.join(o.shots, `${name}.png`) }),
  };
}

/** The statuses the server answers to the page's POSTs to `url`, in order (filled while the page runs). */
export function postStatuses(page: Page, url: string): number[] {
  const statuses: number[] = [];
  page.on('response', (r) => {
    if (r.request().method() === 'POST' && r.url().endsWith(url)) statuses.push(r.status());
  });
  return statuses;
}

/** Nothing on the page is wider than the window: no sideways scroll. */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll, 'the page scrolls sideways').toBeLessThanOrEqual(client);
}

/** The API paths the server answers with `status` while the page runs (filled as they come), e.g. every 403. */
export function answeredWith(page: Page, status: number): string[] {
  const paths: string[] = [];
  page.on('response', (r) => {
    const url = new URL(r.url());
    if (r.status() === status && url.pathname.startsWith('/api/'))
      paths.push(`${r.request().method()} ${url.pathname}`);
  });
  return paths;
}
