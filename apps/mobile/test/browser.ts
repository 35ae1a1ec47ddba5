/**
 * What every browser test of the phone app shares: its viewports, a context at one of them, signing in. The app is built
 * before the run (test/global-setup.ts) and Chromium launched through test/chromium.ts.
 */
import path from 'node:path';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { ROOT } from '../../../test/builds.js';
import { ADMIN } from '../../../packages/server/test/helpers.js';

export { ROOT };
export const DIST = path.join(ROOT, 'apps/mobile/dist');

/** The two sizes the phone app's operator tests run at: a phone (touch) first, then a desktop window. */
export const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844, isMobile: true },
  { name: 'desktop', width: 1440, height: 900, isMobile: false },
] as const;
export type Viewport = (typeof VIEWPORTS)[number];

/** A context at the viewport (touch on a phone, no service worker), for the suite's `open` (locale, waits, errors). */
export const contextAt = (vp: Viewport, headers?: Record<string, string>): BrowserContextOptions => ({
  extraHTTPHeaders: headers,
  viewport: { width: vp.width, height: vp.height },
  isMobile: vp.isMobile,
  hasTouch: vp.isMobile,
  serviceWorkers: 'block',
});

/** Signs in through the phone app's sign-in page at `base` (as the seeded administrator unless said) and waits for home. */
export async function signInMobile(page: Page, base: string, username = ADMIN.username, password = ADMIN.password) {
  await page.goto(`${base}/m/`);
  await page.waitForURL(/\/m\/login/);
  await page.fill('input[name="username"]', username);
  await page.fill('input[name="password"]', password);
  await page.click('[data-testid="login-submit"]');
  await page.locator('[data-page="home"]').waitFor();
}
