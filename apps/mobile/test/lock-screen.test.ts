/**
 * 锁定屏幕 on the phone, at 390×844 and 1440×900 in Debian's headless Chromium against a real server: locked from 我的,
 * still locked after a reload, a wrong password said under the field as the desktop says it, unlocked by the right one
 * with the app usable again. Screenshots: docs/screenshots/mobile-lock-screen-*.png.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasChromium } from '../../../test/chromium.js';
import { settled, useBrowserSuite } from '../../../packages/server/test/browser-suite.js';
import { adminCall, createUser, PASSWORD } from '../../../packages/server/test/admin-fixtures.js';
import { contextAt, ROOT, signInMobile, VIEWPORTS } from './browser.js';

describe.skipIf(!hasChromium)('锁定屏幕 on the phone', { timeout: 90_000 }, () => {
  const suite = useBrowserSuite({ app: 'mobile', shots: path.join(ROOT, 'docs/screenshots') });

  for (const vp of VIEWPORTS) {
    it(`at ${vp.width}×${vp.height}: locked from 我的 across a reload until the password is typed again`, async () => {
      // A user of this test alone: the wrong password counts against the sign-in throttle of the one who types it.
      const username = `m-lock-${vp.name}`;
      await createUser(await adminCall(suite.t.app), username);
      const page = await suite.open(contextAt(vp));
      await signInMobile(page, suite.base, username, PASSWORD);
      await page.locator('[data-testid="tabbar"] .van-tabbar-item', { hasText: '我的' }).click();
      await page.locator('[data-page="me"]').waitFor();
      await page.locator('[data-testid="lock-screen-open"]').click();

      const lock = page.locator('[data-testid="lock-screen"]');
      await lock.waitFor();
      // It covers the whole screen, and the app underneath is out of reach: no clicks, no focus.
      expect(await lock.boundingBox()).toEqual({ x: 0, y: 0, width: vp.width, height: vp.height });
      expect(await page.locator('.app').evaluate((el) => (el as HTMLElement).inert)).toBe(true);
      expect(await lock.textContent()).toContain(username);

      await page.reload();
      await lock.waitFor();
      expect(page.url()).not.toMatch(/\/login/);
      expect(await page.locator('.app').evaluate((el) => (el as HTMLElement).inert)).toBe(true);

      const password = lock.locator('input[name="lock-password"]');
      await password.fill('not-the-password');
      await lock.locator('[data-testid="unlock"]').click();
      const error = lock.locator('.van-field__error-message');
      await expect.poll(() => error.textContent().then((s) => s?.trim())).toBe('登录密码无效：密码不正确');
      expect(await lock.isVisible()).toBe(true);
      await settled(page);
      await suite.shot(page, `mobile-lock-screen-${vp.name}`);

      await password.fill(PASSWORD);
      await lock.locator('[data-testid="unlock"]').click();
      await lock.waitFor({ state: 'hidden' });
      // Still signed in and the app works: the tabs lead on, and a reload stays unlocked.
      expect(await page.locator('.app').evaluate((el) => (el as HTMLElement).inert)).toBe(false);
      await page.locator('[data-testid="tabbar"] .van-tabbar-item', { hasText: '首页' }).click();
      await page.locator('[data-page="home"]').waitFor();
      await page.reload();
      await page.locator('[data-page="home"]').waitFor();
      expect(await lock.isVisible()).toBe(false);

      // 退出登录 from the lock screen; signing in again proves it is you: not locked.
      await page.locator('[data-testid="tabbar"] .van-tabbar-item', { hasText: '我的' }).click();
      await page.locator('[data-testid="lock-screen-open"]').click();
      await lock.locator('[data-testid="lock-logout"]').click();
      await page.waitForURL(/\/m\/login/);
      await signInMobile(page, suite.base, username, PASSWORD);
      expect(await lock.isVisible()).toBe(false);
      await page.context().close();
    });
  }
});
