/**
 * What every browser test of the phone app shares: its viewports, a page at one of them, signing in. The app is built
 * before the run (test/global-setup.ts) and Chromium launched through test/chromium.ts.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ROOT } from '../../../test/builds.js';

export { ROOT };
export const DIST = path.join(ROOT, 'apps/mobile/dist');

/** The two sizes the phone app's operator tests run at: a phone (touch) first, then a desktop window. */
export const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844, isMobile: true },
  { name: 'desktop', width: 1440, height: 900, isMobile: false },
] as const;
export type Viewport = (typeof VIEWPORTS)[number];

/** A new page in its own context at the viewport (touch on a phone), in Chinese, no service worker, waits of 15 s. */
export async function openPage(browser: Browser, vp: Viewport, headers?: Record<string, string>): Promise<Page> {
  const c = await browser.newContext({
    extraHTTPHeaders: headers,
    viewport: { width: vp.width, height: vp.height },
    isMobile: vp.isMobile,
    hasTouch: vp.isMobile,
    locale: 'zh-CN',
    serviceWorkers: 'block',
  });
  c.on('weberror', (e) => console.error(`[page error] ${e.error().message}`));
  c.setDefaultTimeout(15_000);
  return c.newPage();
}

/** Signs in through the phone app's sign-in page at `base` and waits for the home page. */
export async function signInMobile(page: Page, base: string, username: string, password: string) {
  await page.goto(`${base}/m/`);
  await page.waitForURL(/\/m\/login/);
  await page.fill('input[name="username"]', username);
  await page.fill('input[name="password"]', password);
  await page.click('[data-testid="login-submit"]');
  await page.locator('[data-page="home"]').waitFor();
}
