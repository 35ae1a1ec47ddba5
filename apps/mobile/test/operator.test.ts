/**
 * What an operator meets in the phone app, at 390×844 and at 1440×900, in Debian's headless Chromium against a real
 * server (passwords of at least 12 characters, so the server's own policy is what refuses a short one): one's own
 * sign-out, the server's validation message under its field, an unreachable server, names for codes, 登录地点, and no request
 * to another origin (the icon font ships with the app). Screenshots of the changed pages go to docs/screenshots/.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium } from '../../../test/chromium.js';
import { useBrowserSuite } from '../../../packages/server/test/browser-suite.js';
import { login, loginFrom } from '../../../packages/server/test/helpers.js';
import { adminCall, createUser, PASSWORD } from '../../../packages/server/test/admin-fixtures.js';
import { DIST, VIEWPORTS, contextAt, signInMobile, type Viewport } from './browser.js';

describe.skipIf(!hasChromium)('the operator’s daily work in the phone app', { timeout: 90_000 }, () => {
  // Behind a proxy on this machine: a page may sign in from the address its X-Forwarded-For names (登录地点).
  const suite = useBrowserSuite({ app: 'mobile', env: { PASSWORD_MIN_LENGTH: '12', TRUST_PROXY: '127.0.0.1' } });
  const { shot } = suite;

  const open = (vp: Viewport, headers?: Record<string, string>) => suite.open(contextAt(vp, headers));
  const signIn = (page: Page, username?: string, password?: string) =>
    signInMobile(page, suite.base, username, password);

  it('the build names no icon font on a CDN', () => {
    const css = fs.readdirSync(path.join(DIST, 'assets')).filter((f) => f.endsWith('.css'));
    const text = css.map((f) => fs.readFileSync(path.join(DIST, 'assets', f), 'utf8')).join('\n');
    expect(text).toContain('font-family:vant-icon');
    expect(text).not.toContain('alicdn');
  });

  for (const vp of VIEWPORTS) {
    describe(`at ${vp.width}×${vp.height}`, () => {
      it('loads nothing from another origin, and its tab icons draw with the shipped font', async () => {
        const page = await open(vp);
        const foreign: string[] = [];
        page.on('request', (r) => {
          const u = r.url();
          if (/^https?:/.test(u) && !u.startsWith(suite.base)) foreign.push(u);
        });
        await signIn(page);
        await page.locator('[data-testid="tabbar"] .van-icon').first().waitFor();
        expect(await page.evaluate(() => document.fonts.check('16px vant-icon'))).toBe(true);
        expect(foreign).toEqual([]);
        await page.context().close();
      });

      it('signing out on purpose says 已退出登录, not that the session was ended elsewhere', async () => {
        const page = await open(vp);
        await signIn(page);
        await page.locator('.van-tabbar-item', { hasText: '我的' }).click();
        await page.locator('[data-testid="sign-out"]').click();
        await page.locator('.van-dialog__confirm').click();
        await page.waitForURL(/\/m\/login/);
        await page.locator('[data-testid="signed-out-reason"]', { hasText: '已退出登录' }).waitFor();
        await page.waitForTimeout(1500);
        expect(await page.getByText('会话已结束').count()).toBe(0);
        await shot(page, `mobile-signed-out-${vp.name}`);
        await page.context().close();
      });

      it('a password the server’s policy refuses is explained under 新密码, not in a toast', async () => {
        const name = `mpw-${vp.name}-${Math.random().toString(36).slice(2, 6)}`;
        await createUser(await adminCall(suite.t.app), name);
        const page = await open(vp);
        await signIn(page, name, PASSWORD);
        await page.locator('.van-tabbar-item', { hasText: '我的' }).click();
        await page.locator('[data-testid="change-password"]').click();
        await page.fill('input[name="old-password"]', PASSWORD);
        await page.fill('input[name="new-password"]', 'abcdefgh1');
        await page.fill('input[name="new-password-again"]', 'abcdefgh1');
        await page.locator('.van-dialog__confirm').click();
        await page
          .locator('.van-field__error-message', { hasText: '新密码无效：密码长度应至少为 12 个字符' })
          .waitFor();
        expect(await page.locator('.van-toast', { hasText: 'newPassword' }).count()).toBe(0);
        await shot(page, `mobile-password-field-error-${vp.name}`);
        await page.context().close();
      });

      it('an unreachable server keeps the session: 无法连接服务器 with a retry, never the sign-in page', async () => {
        const page = await open(vp);
        await signIn(page);
        await page.context().route('**/api/**', (r) => r.abort('connectionrefused'));
        await page.locator('.van-tabbar-item', { hasText: '用户' }).click();
        const banner = page.locator('[data-testid="unreachable"]', { hasText: '无法连接服务器' });
        await banner.waitFor();
        expect(new URL(page.url()).pathname).not.toMatch(/login/);
        await shot(page, `mobile-unreachable-${vp.name}`);
        await page.reload();
        await banner.waitFor();
        expect(new URL(page.url()).pathname).not.toMatch(/login/);
        await page.context().unroute('**/api/**');
        await page.locator('[data-testid="unreachable-retry"]').click();
        await banner.waitFor({ state: 'hidden' });
        await page.locator('[data-page="home"], [data-page="users"]').first().waitFor();
        await page.locator('.van-tabbar-item', { hasText: '用户' }).click();
        await page.locator('[data-page="users"]').waitFor();
        expect(new URL(page.url()).pathname).toBe('/m/users');
        await page.context().close();
      });

      it('dark mode follows the system, is switched in 我的, and is remembered', async () => {
        const page = await open(vp);
        await page.emulateMedia({ colorScheme: 'dark' });
        await signIn(page);
        const isDark = () => page.evaluate(() => document.documentElement.classList.contains('van-theme-dark'));
        expect(await isDark()).toBe(true);
        await page.locator('.van-tabbar-item', { hasText: '我的' }).click();
        await page.locator('[data-testid="toggle-theme"]').click();
        expect(await isDark()).toBe(false);
        await page.locator('[data-testid="toggle-theme"]').click();
        expect(await isDark()).toBe(true);
        await page.emulateMedia({ colorScheme: 'light' });
        await page.reload();
        await page.locator('[data-page="me"]').waitFor();
        expect(await isDark()).toBe(true);
        await shot(page, `mobile-dark-${vp.name}`);
        await page.locator('[data-testid="theme-system"]').click();
        expect(await isDark()).toBe(false); // back to the system's (now light)
        await page.context().close();
      });

      it('quick add offers 一言’s 分类 by name, and an empty 作者 is optional, not null', async () => {
        const page = await open(vp);
        await signIn(page);
        await page.locator('[data-testid="quick-add-entry"]').click();
        await page.locator('[data-library="hitokoto"]').click();
        await page.locator('.van-radio', { hasText: '抖机灵' }).waitFor();
        expect(await page.locator('input[name="from_who"]').getAttribute('placeholder')).toBe('可不填');
        await shot(page, `mobile-quick-add-${vp.name}`);
        await page.context().close();
      });

      it('session cells and the login log show 登录地点 under the device: a real place, 本机, 内网地址', async () => {
        const shenzhen = '广东省 深圳市 电信';
        // The same account signed in from this machine and from an office network; this page from Shenzhen.
        await login(suite.t.app);
        await loginFrom(suite.t.app, '192.168.1.20');
        const page = await open(vp, { 'x-forwarded-for': '14.21.64.1' });
        await signIn(page);
        const places = (scope: string) => page.locator(`${scope} [data-testid="session-place"]`).allInnerTexts();

        await page.locator('[data-testid="tabbar"]').getByText('会话').click();
        await page.locator('[data-page="sessions"] [data-testid="session-place"]').first().waitFor();
        expect((await places('[data-page="sessions"]')).slice(0, 3)).toEqual([
          `${shenzhen} · 14.21.64.1`,
          '内网地址 · 192.168.1.20',
          '本机 · 127.0.0.1',
        ]);
        await shot(page, `mobile-sessions-${vp.name}`);
        await page.locator('.van-tab', { hasText: '登录日志' }).click();
        const newest = page.locator('[data-testid="login-log-row"] [data-testid="login-place"]').first();
        await newest.waitFor();
        expect(await newest.textContent()).toBe(`${shenzhen}（14.21.64.1）`);
        await shot(page, `mobile-login-log-${vp.name}`);

        await page.locator('[data-testid="tabbar"]').getByText('我的').click();
        const mine = page.locator('[data-page="me"] .session', {
          has: page.locator('.van-tag', { hasText: '当前设备' }),
        });
        await mine.locator('[data-testid="session-place"]', { hasText: shenzhen }).waitFor();
        expect(await places('[data-page="me"]')).toEqual(
          expect.arrayContaining(['内网地址 · 192.168.1.20', '本机 · 127.0.0.1']),
        );
        await shot(page, `mobile-me-${vp.name}`);
        await page.context().close();
      });
    });
  }
});
