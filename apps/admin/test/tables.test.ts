/**
 * The list pages' table toolbar, exports and forms (issue 51, parity with vben-admin and RuoYi), at 1440×900 and
 * 390×844 in Debian's headless Chromium against a real server: 刷新 shows a row added meanwhile, 列设置 hides a column
 * and the table stays so after a reload, an export downloads a dated Chinese-named file with Chinese headers and names,
 * a form shows every bad field at once in Chinese, and the online sessions fit a desktop window.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium } from '../../../test/chromium.js';
import { expectNoSidewaysScroll, useBrowserSuite } from '../../../packages/server/test/browser-suite.js';
import { ADMIN } from '../../../packages/server/test/helpers.js';
import { adminCall, createUser } from '../../../packages/server/test/admin-fixtures.js';
import { ROOT, VIEWPORTS, clickMenu, signInAdmin } from './browser.js';

const SHOTS = path.join(ROOT, 'docs/screenshots');

describe.skipIf(!hasChromium)('list tables: toolbar, exports, forms', { timeout: 90_000 }, () => {
  const suite = useBrowserSuite({ app: 'admin', shots: SHOTS });

  const headers = (page: Page, list: string) =>
    page.locator(`[data-page="${list}"] .el-table__header-wrapper th`).allInnerTexts();

  for (const vp of VIEWPORTS) {
    const open = async () => {
      const page = await suite.open({ viewport: { width: vp.width, height: vp.height }, acceptDownloads: true });
      await signInAdmin(page, suite.base, ADMIN.username, ADMIN.password);
      return page;
    };

    it(`at ${vp.width}×${vp.height}: 刷新 shows a user added meanwhile, keeping the search`, async () => {
      const page = await open();
      await clickMenu(page, 'system', 'system:user');
      const table = page.locator('[data-page="users"] .el-table__body-wrapper');
      await page.locator('[data-page="users"] input[name="keyword"]').fill(`fresh-${vp.name}`);
      await page.locator('[data-page="users"] [data-action="SEARCH"]').click();
      await page.locator('[data-page="users"] .el-table__empty-text', { hasText: '暂无数据' }).waitFor();

      await createUser(await adminCall(suite.t.app), `fresh-${vp.name}`);
      await page.locator('[data-testid="table-refresh"]').click();
      await table.locator('.el-table__row', { hasText: `fresh-${vp.name}` }).waitFor();
      // Still the search's page: only the match shows.
      expect(await table.locator('.el-table__row').count()).toBe(1);
      await page.context().close();
    });

    it(`at ${vp.width}×${vp.height}: 列设置 hides a column, a reload keeps it hidden, 重置 brings it back`, async () => {
      const page = await open();
      await clickMenu(page, 'system', 'system:login-log');
      await page.locator('[data-page="login-logs"] .el-table__row').first().waitFor();
      expect(await headers(page, 'login-logs')).toContain('登录地点');

      await page.locator('[data-page="login-logs"] [data-testid="table-columns"]').click();
      const popover = page.locator('.column-settings:visible');
      // The identifying first column may not be hidden.
      expect(await popover.locator('[data-column="时间"] input').isDisabled()).toBe(true);
      await popover.locator('[data-column="登录地点"]').click();
      await expect.poll(() => headers(page, 'login-logs')).not.toContain('登录地点');
      await suite.shot(page, `admin-table-columns-${vp.name}`);

      await page.reload();
      await page.locator('[data-page="login-logs"] .el-table__row').first().waitFor();
      const after = await headers(page, 'login-logs');
      expect(after).not.toContain('登录地点');
      expect(after).toContain('设备');

      await page.locator('[data-page="login-logs"] [data-testid="table-columns"]').click();
      await page.locator('.column-settings:visible [data-testid="columns-reset"]').click();
      await expect.poll(() => headers(page, 'login-logs')).toContain('登录地点');
      await page.context().close();
    });

    it(`at ${vp.width}×${vp.height}: 导出 saves 登录日志-<today>.csv with Chinese headers and names, not codes`, async () => {
      const username = `wrong-${vp.name}`;
      await createUser(await adminCall(suite.t.app), username);
      const failed = await suite.t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username, password: 'not-the-password' },
      });
      expect(failed.statusCode).toBe(401);
      const page = await open();
      await clickMenu(page, 'system', 'system:login-log');
      await page.locator('[data-page="login-logs"] input[name="keyword"]').fill(username);
      await page.locator('[data-page="login-logs"] [data-action="SEARCH"]').click();
      // Until the search answers, the table still lists every sign-in (the other viewport's
      // `wrong-…` user too): wait for the filtered table, one row, before exporting.
      const shown = page.locator('[data-page="login-logs"] .el-table__row');
      await expect
        .poll(() => shown.allInnerTexts(), { timeout: 15_000 })
        .toEqual([expect.stringMatching(new RegExp(`${username}[\\s\\S]*密码错误`))]);

      const [file] = await Promise.all([
        page.waitForEvent('download'),
        page.locator('[data-route="GET /api/login-logs/export"]').click(),
      ]);
      const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10); // in Beijing
      expect(file.suggestedFilename()).toBe(`登录日志-${today}.csv`);
      const bytes = fs.readFileSync((await file.path())!);
      expect([...bytes.subarray(0, 3)], 'UTF-8 with a byte-order mark, for Excel').toEqual([0xef, 0xbb, 0xbf]);
      const [header, ...rows] = bytes.toString('utf8').slice(1).trim().split('\r\n');
      expect(header.split(',').slice(0, 5)).toEqual(['时间', '用户', '事件', '结果', '原因']);
      // The search applied: the one failed sign-in, in words and Beijing time, as the page shows it.
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2},${username},登录,失败,密码错误,`));
      expect(rows[0]).not.toContain('WRONG_PASSWORD');
      await page.context().close();
    });

    it(`at ${vp.width}×${vp.height}: 保存 with two bad fields names both at once, in Chinese`, async () => {
      const page = await open();
      await clickMenu(page, 'system', 'system:role');
      await page.locator('[data-page="roles"] [data-route="POST /api/roles"]').click();
      const dialog = page.locator('[data-dialog="role-form"]');
      await dialog.locator('input[name="code"]').fill('9-bad');
      await dialog.locator('[data-testid="save-role"]').click();
      const errors = dialog.locator('.el-form-item__error');
      // The first save reads the body's schema from /openapi.json: wait for the messages, not for a time.
      await errors.nth(1).waitFor();
      expect(await errors.allInnerTexts()).toEqual([
        '编码应为 2 至 32 个字符：小写字母开头，只含小写字母、数字、_ : -',
        '请输入名称',
      ]);
      await suite.shot(page, `admin-form-errors-${vp.name}`);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });

      // The menus dialog, which keeps its own form, names both too.
      await clickMenu(page, 'system', 'system:menu');
      await page.locator('[data-page="menus"] [data-route="POST /api/menus"]').click();
      const menu = page.locator('[data-dialog="menu-form"]');
      await menu.locator('input[name="code"]').fill('9-bad');
      await menu.locator('[data-testid="save-menu"]').click();
      await menu.locator('.el-form-item__error').nth(1).waitFor();
      const menuErrors = await menu.locator('.el-form-item__error').allInnerTexts();
      expect(menuErrors[0]).toMatch(/^编码/);
      expect(menuErrors[1]).toBe('请输入名称');
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'hidden' });

      // The change-password dialog: every field's message in Chinese, none of Element Plus's English.
      await page.locator('[data-testid="user-menu"]').click();
      await page.locator('[data-testid="open-password"]').click();
      const password = page.locator('[data-dialog="change-password"]');
      await password.locator('[data-testid="save-password"]').click();
      await password.locator('.el-form-item__error').nth(2).waitFor();
      expect(await password.locator('.el-form-item__error').allInnerTexts()).toEqual([
        '请输入原密码',
        '请输入新密码',
        '请再次输入新密码',
      ]);
      await page.context().close();
    });

    if (vp.name !== 'desktop')
      it(`at ${vp.width}×${vp.height}: each online session shows its device and address without scrolling`, async () => {
        const page = await open();
        await clickMenu(page, 'system', 'system:session');
        const first = page.locator('[data-page="sessions"] .el-table__row').first();
        await first.waitFor();
        for (const col of ['device-narrow', 'place-narrow']) {
          const cell = first.locator(`[data-col="${col}"]`);
          const box = (await cell.boundingBox())!;
          expect(box.x + box.width, col).toBeLessThanOrEqual(vp.width);
        }
        expect(await first.locator('[data-col="place-narrow"]').textContent()).toMatch(/ · 127\.0\.0\.1$/);
        expect(await first.locator('[data-col="device-narrow"]').textContent()).toMatch(/^\S.* · \S+$/);
        await suite.shot(page, `admin-sessions-rows-${vp.name}`);
        await page.context().close();
      });

    if (vp.name === 'desktop')
      it('at 1440×900: the online sessions show 最近活动 and 方式 in the window, without sideways scrolling', async () => {
        const page = await open();
        await clickMenu(page, 'system', 'system:session');
        const page_ = page.locator('[data-page="sessions"]');
        await page_.locator('.el-table__row').first().waitFor();
        // How each session signed in, under its client kind: these were opened with the password.
        expect(await page_.locator('.el-table__row [data-col="sign-in-method"]').first().textContent()).toBe('密码');
        const th = page_.locator('.el-table__header-wrapper th', { hasText: '最近活动' });
        const box = (await th.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(vp.width);
        // Inside the table's own box: the table does not scroll sideways to reach it.
        const wrap = page_.locator('.el-table__body-wrapper .el-scrollbar__wrap');
        const { scroll, client } = await wrap.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
        expect(scroll, 'the sessions table scrolls sideways').toBeLessThanOrEqual(client);
        await expectNoSidewaysScroll(page);
        await page.context().close();
      });
  }
});
