import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, BrowserContextOptions, Page, PageScreenshotOptions } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { type BuildName, ROOT, expectBuilt } from '../../../test/builds.js';
import { launchChromium } from '../../../test/chromium.js';
import { getTestInstance, type TestInstance } from './helpers.js';

export interface BrowserSuiteOptions {
  /** The built web app the suite serves (the global setup builds it; the suite only checks). */
  app: BuildName;
  /** Settings of the server (PASSWORD_MIN_LENGTH …). */
  env?: Record<string, string>;
  /** Where `shot` writes screenshots: the repository's docs/screenshots unless another folder is named. */
  shots?: string;
  /**
   * When a test fails, a picture of every page open in a context `open` made, saved in `shots` as
   * `<failureShots><test name>-<n>.png`, to see what the browser showed (e.g. 'FAILED-'). Off unless set: the
   * suites that write to docs/screenshots keep failures out of it.
   */
  failureShots?: string;
}

/**
 * A browser suite's server and Chromium, for the enclosing describe block: a fresh app on SQLite listening on a free
 * port and the browser launched before the first test (the web app checked built), both closed after the last. `open`
 * gives a page in a fresh context (Chinese locale, 15 s timeouts, page errors on the console); `shot` saves a
 * screenshot. The start waits for vitest's hookTimeout (vitest.config.ts says why that bound). A file's own set-up
 * (data the tests read) goes in a `beforeAll` after this call: vitest runs a block's beforeAll hooks in order.
 *
 * @example
 * const suite = useBrowserSuite({ app: 'admin', env: { PASSWORD_MIN_LENGTH: '12' } });
 * beforeAll(() => createUser(…suite.t.app…));
 * it('…', async () => { const page = await suite.open({ viewport }); await page.goto(`${suite.base}/admin/`); });
 */
export function useBrowserSuite(o: BrowserSuiteOptions) {
  const shots = o.shots ?? path.join(ROOT, 'docs/screenshots');
  let t: TestInstance | undefined;
  let browser: Browser | undefined;
  let base = '';
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    expectBuilt(o.app);
    fs.mkdirSync(shots, { recursive: true });
    t = await getTestInstance('sqlite', o.env ?? {});
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });
  const prefix = o.failureShots;
  if (prefix !== undefined)
    beforeEach(({ task, onTestFailed }) => {
      onTestFailed(async () => {
        const name = task.name.replace(/[^\w一-龥]+/g, '-').slice(0, 60);
        const pages = contexts.flatMap((c) => c.pages());
        await Promise.all(
          pages.map((p, i) =>
            p.screenshot({ path: path.join(shots, `${prefix}${name}-${i}.png`) }).catch(() => undefined),
          ),
        );
      });
    });
  return {
    get t(): TestInstance {
      return started(t, 'the app');
    },
    get base() {
      return base;
    },
    get browser(): Browser {
      return started(browser, 'Chromium');
    },
    /** A page in a fresh context with `options` (viewport, touch, downloads, …). */
    async open(options: BrowserContextOptions, permissions: string[] = []): Promise<Page> {
      const c = await started(browser, 'Chromium').newContext({ locale: 'zh-CN', ...options });
      contexts.push(c);
      if (permissions.length) await c.grantPermissions(permissions, { origin: base });
      c.on('weberror', (e) => console.error(`[page error] ${e.error().message}`));
      c.setDefaultTimeout(15_000);
      return c.newPage();
    },
    /** Saves `<shots>/<name>.png`; `options` as Playwright's (`fullPage` …). */
    shot: (page: Page, name: string, options: PageScreenshotOptions = {}) =>
      page.screenshot({ ...options, path: path.join(shots, `${name}.png`) }),
  };
}

function started<T>(value: T | undefined, what: string): T {
  if (!value) throw new Error(`useBrowserSuite: ${what} starts in beforeAll; read it inside a test`);
  return value;
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

/** Waits for the page's animations (an error fading in, a dialog opening) to end: a screenshot shows what stays. */
export const settled = (page: Page) =>
  page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Number.POSITIVE_INFINITY),
  );

/** A platform authenticator (as Touch ID or Windows Hello) that verifies the user at once. */
export async function virtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}
