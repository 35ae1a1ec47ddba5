/**
 * What every browser test of the admin app shares beyond the suite fixtures (packages/server/test/browser-suite.ts):
 * its viewports, a context at one of them, signing in, opening a menu entry. The app is built before the run
 * (test/global-setup.ts) and Chromium launched through test/chromium.ts.
 */
import path from 'node:path';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { ROOT } from '../../../test/builds.js';
import { ADMIN } from '../../../packages/server/test/helpers.js';

export { ROOT };
export const DIST = path.join(ROOT, 'apps/admin/dist');

/** The two sizes the operator tests run at. */
export const VIEWPORTS = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;
export type Viewport = (typeof VIEWPORTS)[number];

/** A context at the viewport, for the suite's `open` (which adds the Chinese locale, the waits and error logging). */
export const contextAt = (vp: Viewport, headers?: Record<string, string>): BrowserContextOptions => ({
  viewport: { width: vp.width, height: vp.height },
  extraHTTPHeaders: headers,
});

/** Signs in through the admin app's sign-in page at `base` (as the seeded administrator unless said) and waits for the shell. */
export async function signInAdmin(page: Page, base: string, username = ADMIN.username, password = ADMIN.password) {
  await page.goto(`${base}/admin/`);
  await page.waitForURL(/\/admin\/login/);
  await page.fill('input[name="username"]', username);
  await page.fill('input[name="password"]', password);
  await page.click('[data-testid="login-submit"]');
  await page.waitForURL((u) => !u.pathname.startsWith('/admin/login'));
  await page.locator('[data-testid="user-menu"]').waitFor();
}

/**
 * Clicks the menu entry `leaf` under `parent` (codes as in data-menu), from the side menu or, on a phone, from the
 * drawer behind the hamburger. `navigates: false` when the click is not expected to change the address (the page is
 * already open, or the server is unreachable).
 */
export async function clickMenu(page: Page, parent: string, leaf: string, { navigates = true } = {}) {
  const toggle = page.locator('[data-testid="menu-toggle"]');
  const drawer = await toggle.isVisible();
  if (drawer) await toggle.click();
  const sub = page.locator(`.side-menu [data-menu="${parent}"]`);
  await sub.waitFor();
  if (!(await sub.evaluate((el) => el.classList.contains('is-opened'))))
    await sub.locator('.el-sub-menu__title').click();
  const entry = page.locator(`.side-menu [data-menu="${leaf}"]`);
  const before = page.url();
  await entry.click();
  // A click that did not take (no navigation, and on a phone the drawer still open) was seen twice in fresh-clone CI
  // runs on a loaded machine and never locally: once the drawer stayed open, once the desktop stayed on its page.
  // Wait for the address to change; if it has not after 5 s, say so and click once more before giving up.
  const moved =
    !navigates ||
    (await page
      .waitForURL((u) => u.href !== before, { timeout: 5_000 })
      .then(
        () => true,
        () => false,
      ));
  if (!moved) {
    console.warn(`[clickMenu] ${leaf}: no navigation 5 s after the click; clicking again`);
    if (await entry.isVisible()) await entry.click();
    await page.waitForURL((u) => u.href !== before);
  }
  if (drawer) await page.locator('.side-menu').waitFor({ state: 'hidden' });
}
