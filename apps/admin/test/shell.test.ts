/**
 * The desktop shell's everyday tools (issue 51, vben-admin / RuoYi parity), at 1440×900 and 390×844 in Debian's
 * headless Chromium against a real server: the lock screen (locked across a reload, a wrong password said under the
 * field, unlocked by the right one, 退出登录 from it), full screen, the menu search (Ctrl K, pinyin initials, Enter)
 * and the tabs' context menu (close others / left / right, pin). Screenshots go to docs/screenshots/.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium } from '../../../test/chromium.js';
import { settled, useBrowserSuite } from '../../../packages/server/test/browser-suite.js';
import { adminCall, createUser, PASSWORD } from '../../../packages/server/test/admin-fixtures.js';
import { ADMIN } from '../../../packages/server/test/helpers.js';
import { clickMenu, ROOT, signInAdmin, VIEWPORTS } from './browser.js';

const tabNames = (page: Page) =>
  page
    .locator('[data-testid="page-tabs"] .el-tabs__item')
    .allTextContents()
    .then((names) => names.map((n) => n.trim()));
const tab = (page: Page, name: string) => page.locator('[data-testid="page-tabs"] .el-tabs__item', { hasText: name });
/** The pages the tab test opens: tab name → menu code and the page's data-page. */
const PAGES: Record<string, [string, string]> = {
  用户管理: ['system:user', 'users'],
  角色管理: ['system:role', 'roles'],
  审计日志: ['system:audit', 'audit'],
  在线会话: ['system:session', 'sessions'],
};
/**
 * Opens a tab's menu: a right click on the tab on a wide screen; on a phone (no right click, the tab strip scrolls
 * under its arrows) the ▾ button next to the tabs, for the page shown, opened first from the menu drawer.
 */
async function openTabMenu(page: Page, name: string) {
  if ((page.viewportSize()?.width ?? 0) >= 768) await tab(page, name).click({ button: 'right' });
  else {
    const [leaf, pageName] = PAGES[name];
    if ((await page.locator(`[data-page="${pageName}"]`).count()) === 0) {
      await clickMenu(page, 'system', leaf);
      await page.locator(`[data-page="${pageName}"]`).waitFor();
    }
    await page.locator('[data-testid="tab-actions"]').click();
  }
  await page.locator('[data-testid="tab-menu"]').waitFor();
}
async function tabCommand(page: Page, name: string, command: string) {
  await openTabMenu(page, name);
  await page.locator(`[data-testid="tab-menu"] [data-command="${command}"]`).click();
  await page.locator('[data-testid="tab-menu"]').waitFor({ state: 'detached' });
}

describe.skipIf(!hasChromium)('the desktop shell', { timeout: 120_000 }, () => {
  const suite = useBrowserSuite({ app: 'admin', shots: path.join(ROOT, 'docs/screenshots') });

  for (const vp of VIEWPORTS) {
    const viewport = { width: vp.width, height: vp.height };

    it(`at ${vp.width}×${vp.height}: 锁屏 covers the page across a reload until the password is typed again`, async () => {
      const username = `lock-${vp.name}`;
      await createUser(await adminCall(suite.t.app), username);
      const page = await suite.open({ viewport });
      await signInAdmin(page, suite.base, username, PASSWORD);
      await page.locator('[data-testid="user-menu"]').click();
      await page.locator('[data-testid="lock-screen-open"]').click();
      const lock = page.locator('[data-testid="lock-screen"]');
      await lock.waitFor();
      // The page underneath cannot be reached: the user menu is covered and out of the tab order.
      expect(await page.locator('.layout').evaluate((el) => (el as HTMLElement).inert)).toBe(true);

      await page.reload();
      await lock.waitFor();
      expect(page.url()).not.toMatch(/\/login/);

      await lock.locator('input[name="lock-password"]').fill('not-the-password');
      await lock.locator('[data-testid="unlock"]').click();
      await expect
        .poll(() =>
          lock
            .locator('.el-form-item__error')
            .textContent()
            .then((s) => s?.trim()),
        )
        .toBe('登录密码无效：密码不正确');
      await settled(page);
      await suite.shot(page, `admin-lock-screen-${vp.name}`);

      await lock.locator('input[name="lock-password"]').fill(PASSWORD);
      await lock.locator('[data-testid="unlock"]').click();
      await lock.waitFor({ state: 'detached' });
      // Still signed in, the page usable; a reload stays unlocked.
      await page.locator('[data-testid="user-menu"]').click();
      await page.locator('[data-testid="open-profile"]').click();
      await page.waitForURL(/\/admin\/profile$/);
      await page.reload();
      await page.locator('[data-testid="user-menu"]').waitFor();
      expect(await lock.count()).toBe(0);

      // 退出登录 from the lock screen; signing in again proves it is you: not locked.
      await page.locator('[data-testid="user-menu"]').click();
      await page.locator('[data-testid="lock-screen-open"]').click();
      await lock.locator('[data-testid="lock-logout"]').click();
      await page.waitForURL(/\/admin\/login/);
      await signInAdmin(page, suite.base, username, PASSWORD);
      expect(await lock.count()).toBe(0);
      await page.context().close();
    });

    it(`at ${vp.width}×${vp.height}: the full-screen button (wide screens only) toggles full screen`, async () => {
      const page = await suite.open({ viewport });
      await signInAdmin(page, suite.base, ADMIN.username, ADMIN.password);
      const button = page.locator('[data-testid="toggle-fullscreen"]');
      if (vp.width < 768) {
        expect(await button.count()).toBe(0);
        await page.context().close();
        return;
      }
      expect(await button.getAttribute('title')).toBe('全屏');
      await button.click();
      await expect.poll(() => page.evaluate(() => document.fullscreenElement?.tagName)).toBe('HTML');
      await expect.poll(() => button.getAttribute('title')).toBe('退出全屏');
      await button.click();
      await expect.poll(() => page.evaluate(() => document.fullscreenElement)).toBeNull();
      await expect.poll(() => button.getAttribute('title')).toBe('全屏');
      await page.context().close();
    });

    it(`at ${vp.width}×${vp.height}: Ctrl K finds 用户管理 by its pinyin initials and Enter opens it`, async () => {
      const page = await suite.open({ viewport });
      await signInAdmin(page, suite.base, ADMIN.username, ADMIN.password);
      const search = page.locator('.menu-search');
      const input = search.locator('input[name="menu-search"]');
      // Opened, the caret is in the box: typing goes there.
      const opened = () => expect.poll(() => input.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.press('Control+k');
      await opened();
      await page.keyboard.type('yh');
      const results = search.locator('[data-testid="menu-search-results"] [role="option"]');
      await expect.poll(() => results.first().textContent()).toContain('用户管理');
      await settled(page);
      await suite.shot(page, `admin-menu-search-${vp.name}`);
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/admin\/system\/users$/);
      await search.waitFor({ state: 'hidden' });

      // The header's button opens it too; the arrow keys choose, Esc closes.
      await page.locator('[data-testid="open-search"]').click();
      await opened();
      await page.keyboard.type('juese');
      await expect.poll(() => results.first().textContent()).toContain('角色管理');
      await page.keyboard.press('Escape');
      await search.waitFor({ state: 'hidden' });
      await page.keyboard.press('Control+k');
      await opened();
      await page.keyboard.type('gl');
      await expect.poll(() => results.count()).toBeGreaterThan(1);
      const second = (await results.nth(1).locator('.name').textContent())!;
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await search.waitFor({ state: 'hidden' });
      await expect.poll(() => page.locator('.header .title').first().textContent()).toContain(second);
      await page.context().close();
    });

    it(`at ${vp.width}×${vp.height}: a tab's menu pins it and closes the others, left or right`, async () => {
      const page = await suite.open({ viewport });
      await signInAdmin(page, suite.base, ADMIN.username, ADMIN.password);
      for (const [leaf, pageName] of Object.values(PAGES)) {
        await clickMenu(page, 'system', leaf);
        await page.locator(`[data-page="${pageName}"]`).waitFor();
      }
      expect(await tabNames(page)).toEqual(['首页', '用户管理', '角色管理', '审计日志', '在线会话']);

      await openTabMenu(page, '角色管理');
      const menu = page.locator('[data-testid="tab-menu"]');
      expect((await menu.locator('button').allTextContents()).map((s) => s.trim())).toEqual([
        '刷新',
        '关闭',
        '关闭其他',
        '关闭左侧',
        '关闭右侧',
        '关闭全部',
        '固定',
      ]);
      await settled(page);
      await suite.shot(page, `admin-tab-menu-${vp.name}`);
      await menu.locator('[data-command="pin"]').click();
      // Pinned: moved next to home, no close button, and it stays whatever is closed.
      expect(await tabNames(page)).toEqual(['首页', '角色管理', '用户管理', '审计日志', '在线会话']);
      expect(await tab(page, '角色管理').locator('.is-icon-close').count()).toBe(0);

      await tabCommand(page, '审计日志', 'closeLeft');
      expect(await tabNames(page)).toEqual(['首页', '角色管理', '审计日志', '在线会话']);
      await tabCommand(page, '审计日志', 'closeRight');
      expect(await tabNames(page)).toEqual(['首页', '角色管理', '审计日志']);
      // Audit shows (on a wide screen 在线会话 was shown and lost its tab: the tab the command was on shows).
      await page.locator('[data-page="audit"]').waitFor();

      await clickMenu(page, 'system', 'system:user');
      await page.locator('[data-page="users"]').waitFor();
      await tabCommand(page, '用户管理', 'closeOthers');
      expect(await tabNames(page)).toEqual(['首页', '角色管理', '用户管理']);
      await page.reload();
      await page.locator('[data-page="users"]').waitFor();
      expect(await tabNames(page)).toEqual(['首页', '角色管理', '用户管理']);
      // 刷新 mounts the page shown afresh: it asks the server for its rows again.
      await page.locator('[data-page="users"] .el-table__row').first().waitFor();
      const reloaded = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/users');
      await tabCommand(page, '用户管理', 'refresh');
      expect((await reloaded).ok()).toBe(true);
      await tabCommand(page, '角色管理', 'unpin');
      expect(await tab(page, '角色管理').locator('.is-icon-close').count()).toBe(1);
      await page.context().close();
    });
  }
});
