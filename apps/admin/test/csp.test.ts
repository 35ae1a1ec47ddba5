/**
 * The admin app under the service's real Content-Security-Policy (no 'unsafe-inline' for scripts), in Debian's
 * headless Chromium: signing in and opening every main page reports no CSP violation, and the sign-in page renders
 * at desktop and phone sizes (screenshots in test-results/admin-csp/). /docs, which needs one inline script allowed
 * by hash, is checked the same way. Skipped with a note when /usr/bin/chromium is missing, unless TIANJI_E2E=1.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium } from '../../../test/chromium.js';
import { useBrowserSuite } from '../../../packages/server/test/browser-suite.js';
import { ADMIN, login } from '../../../packages/server/test/helpers.js';
import { routeOfMenu, type MenuLike } from '../src/lib/menu-routes.js';
import { ROOT } from './browser.js';

const SHOTS = path.join(ROOT, 'test-results/admin-csp');

/** Every CSP violation a page reports: the console message Chromium prints and the DOM event, both kept. */
async function watchCsp(page: Page): Promise<string[]> {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) seen.push(`console: ${m.text()}`);
  });
  await page.exposeFunction('__cspViolation', (s: string) => seen.push(`event: ${s}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { __cspViolation: (s: string) => void }).__cspViolation(
        `${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`,
      ),
    );
  });
  return seen;
}

const leaves = (nodes: MenuLike[]): MenuLike[] => nodes.flatMap((n) => (n.children.length ? leaves(n.children) : [n]));

describe.skipIf(!hasChromium)('admin app under a CSP without inline scripts', { timeout: 120_000 }, () => {
  const suite = useBrowserSuite({ app: 'admin', shots: SHOTS });

  it('the policy sent with the app allows no inline script', async () => {
    const res = await fetch(`${suite.base}/admin/`);
    const scriptSrc = /script-src ([^;]*)/.exec(res.headers.get('content-security-policy') ?? '')?.[1] ?? '';
    expect(scriptSrc).toContain("'self'");
    expect(scriptSrc).not.toContain('unsafe-inline');
  });

  it.each([
    ['desktop', { width: 1366, height: 860 }],
    ['phone', { width: 390, height: 844 }],
  ])('the sign-in page renders with no CSP violation (%s)', async (name, viewport) => {
    const page = await (await suite.browser.newContext({ viewport, locale: 'zh-CN' })).newPage();
    const violations = await watchCsp(page);
    await page.goto(`${suite.base}/admin/login`);
    await page.locator('[data-testid="login-submit"]').waitFor();
    await page.screenshot({
      path: path.join(SHOTS, `login-${name}-${viewport.width}x${viewport.height}.png`),
      fullPage: true,
    });
    expect(await page.locator('input[name="username"]').isVisible()).toBe(true);
    expect(violations).toEqual([]);
    await page.context().close();
  });

  it('signing in and opening every main page reports no CSP violation', async () => {
    const page = await (
      await suite.browser.newContext({ viewport: { width: 1366, height: 860 }, locale: 'zh-CN' })
    ).newPage();
    page.context().setDefaultTimeout(15_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const violations = await watchCsp(page);
    await page.goto(`${suite.base}/admin/`);
    await page.waitForURL(/\/admin\/login/);
    await page.fill('input[name="username"]', ADMIN.username);
    await page.fill('input[name="password"]', ADMIN.password);
    await page.click('[data-testid="login-submit"]');
    await page.locator('.side-menu').waitFor();
    const me = await suite.t.app.inject({
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${(await login(suite.t.app)).accessToken}` },
    });
    const routes = leaves(me.json().data.menus as MenuLike[]).map(routeOfMenu);
    expect(routes).toEqual(
      expect.arrayContaining(['/system/users', '/system/roles', '/system/menus', '/system/audit-logs']),
    );
    for (const route of routes) {
      await page.goto(`${suite.base}/admin${route}`);
      await page.locator('.side-menu').waitFor();
      // Not 'networkidle': the app holds the session's events stream open. Each page renders its data-page root.
      await page.locator('[data-page]').first().waitFor();
      await page.waitForTimeout(200);
      expect([route, page.url()]).toEqual([route, `${suite.base}/admin${route}`]);
    }
    await page.screenshot({ path: path.join(SHOTS, 'last-page.png'), fullPage: true });
    expect(errors).toEqual([]);
    expect(violations).toEqual([]);
    await page.context().close();
  });

  it('the Scalar console (/docs/api/scalar/) runs its hashed inline script; no inline script or font is refused', async () => {
    const page = await (await suite.browser.newContext({ viewport: { width: 1366, height: 860 } })).newPage();
    const violations = await watchCsp(page);
    await page.goto(`${suite.base}/docs/api/scalar/`);
    // Scalar renders the document's title once its inline start-up script has run.
    await page.getByText('tianji', { exact: false }).first().waitFor({ timeout: 30_000 });
    // Scalar's bundle probes whether eval is available (and works without it); that refusal is expected.
    expect(violations.filter((v) => !/blocked eval at/.test(v))).toEqual([]);
    await page.context().close();
  });
});
