/**
 * Roles and accounts in the admin app, at 1440×900 and 390×844, in Debian's headless Chromium against a real server:
 * the role dialog's 要求两步验证, the grant grid offering each menu only the points its routes declare (half-checked
 * parents), 解锁 and 重置两步验证 on the users page, and server errors under their fields in the users, roles and
 * menus dialogs. Screenshots go to docs/screenshots/.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from '../../../test/chromium.js';
import { useBrowserSuite } from '../../../packages/server/test/browser-suite.js';
import {
  adminCall,
  createUser,
  PASSWORD,
  userWithGrants,
  type Call,
} from '../../../packages/server/test/admin-fixtures.js';
import { VIEWPORTS, clickMenu, contextAt, signInAdmin, type Viewport } from './browser.js';

describe.skipIf(!hasChromium)('roles and account security in the admin app', { timeout: 90_000 }, () => {
  const suite = useBrowserSuite({ app: 'admin', env: { LOGIN_MAX_FAILURES: '3' } });
  const { shot } = suite;
  let api: Call;

  beforeAll(async () => {
    api = await adminCall(suite.t.app);
  });

  const open = (vp: Viewport) => suite.open(contextAt(vp));
  const signIn = (page: Page, username?: string, password?: string) =>
    signInAdmin(page, suite.base, username, password);

  const confirmBox = (page: Page) => page.locator('.el-message-box .el-button--primary').click();
  const signInStatus = (username: string, password: string) =>
    suite.t.app
      .inject({ method: 'POST', url: '/api/auth/login', payload: { username, password }, remoteAddress: '192.0.2.44' })
      .then((r) => r.statusCode);

  for (const vp of VIEWPORTS) {
    describe(`at ${vp.width}×${vp.height}`, () => {
      const tag = `${vp.name}${Math.random().toString(36).slice(2, 6)}`;

      it('the role dialog sets 要求两步验证; a taken name shows under 名称; the list tags the role', async () => {
        const page = await open(vp);
        await signIn(page);
        await clickMenu(page, 'system', 'system:role');
        await page.locator('[data-page="roles"] [data-action="ADD"]').click();
        const dialog = page.locator('[data-dialog="role-form"]');
        await dialog.locator('input[name="code"]').fill(`totp_${tag}`);
        await dialog.locator('input[name="name"]').fill('超级管理员');
        await dialog.locator('[data-testid="require-totp"]').click();
        await dialog.getByText('该角色的成员必须开启两步验证才能继续操作').waitFor();
        await dialog.locator('[data-testid="save-role"]').click();
        await dialog.locator('.el-form-item__error', { hasText: /^名称无效：角色名称不能重复/ }).waitFor();
        expect(await page.locator('.el-message', { hasText: '参数' }).count()).toBe(0);
        await shot(page, `admin-role-dialog-${vp.name}`);
        await dialog.locator('input[name="name"]').fill(`需两步验证${tag}`);
        await dialog.locator('[data-testid="save-role"]').click();
        await dialog.waitFor({ state: 'hidden' });
        const row = page.locator('[data-page="roles"] .el-table__row', { hasText: `需两步验证${tag}` });
        await row.locator('[data-require-totp]').waitFor();
        const roles = (await api('GET', `/api/roles?keyword=totp_${tag}`)).json().data.items;
        expect(roles[0].requireTotp).toBe(true);
        await page.context().close();
      });

      it('below the super administrator the switch is off, saying why', async () => {
        const op = `roleop-${tag}`;
        await userWithGrants(suite.t.app, api, op, { system: 0, 'system:role': 1 | 2 | 4 });
        const page = await open(vp);
        await signIn(page, op, PASSWORD);
        await clickMenu(page, 'system', 'system:role');
        await page.locator('[data-page="roles"] [data-action="ADD"]').click();
        const dialog = page.locator('[data-dialog="role-form"]');
        await dialog.getByText('只有超级管理员可以修改此项').waitFor();
        expect(await dialog.locator('.el-switch.is-disabled').count()).toBe(1);
        await page.context().close();
      });

      it('the grant grid offers each menu only its declared points; a parent is half-checked', async () => {
        const custom = `ops${tag}`;
        expect((await api('POST', '/api/menus', { code: custom, name: `运维手册${tag}` })).statusCode).toBe(201);
        const page = await open(vp);
        await signIn(page);
        await clickMenu(page, 'system', 'system:role');
        const row = page.locator('[data-page="roles"] .el-table__row', { hasText: `totp_${tag}` });
        await row.locator('[data-action="GRANT"]').click();
        const editor = page.locator('[data-dialog="grant-editor"]');
        // 登录日志: 查询 and 导出 only.
        await editor.locator('[data-grant="system:login-log:SEARCH"]').waitFor();
        expect(await editor.locator('[data-grant="system:login-log:EXPORT"]').count()).toBe(1);
        for (const p of ['ADD', 'EDIT', 'DELETE', 'RESET', 'GRANT'])
          expect(await editor.locator(`[data-grant="system:login-log:${p}"]`).count(), p).toBe(0);
        expect(await editor.locator('[data-grant-none="system:login-log:ADD"]').count()).toBe(1);
        // 用户管理 offers 解锁 (重置) and 重置密码; a directory offers none; the operator's own menu offers all ten.
        expect(await editor.locator('[data-grant="system:user:RESET"]').count()).toBe(1);
        expect(await editor.locator('[data-grant^="system:"][data-grant$=":ADD_CHILD"]').count()).toBe(1);
        expect(await editor.locator('[data-grant-none^="system:"]').count()).toBeGreaterThan(10);
        expect(await editor.locator(`[data-grant^="${custom}:"]`).count()).toBe(12); // visible, ten points, 全部
        // What a point allows on each menu, from its routes: 重置 unlocks a user and rotates a key, under the box and on
        // hover; a point whose name says it (编辑 on 用户管理) has no small print.
        const caption = (grant: string) => editor.locator(`[data-grant-caption="${grant}"]`);
        expect(await caption('system:user:RESET').textContent()).toBe('解锁用户');
        expect(await caption('system:user:RESET_PASSWORD').textContent()).toBe('重置用户密码、重置两步验证');
        expect(await caption('monitor:api-key:RESET').textContent()).toBe('轮换接口密钥');
        expect(await caption('system:user:EDIT').count()).toBe(0);
        // A box offered is a box only: not also the 「—」 of a point the menu lacks.
        for (const grant of ['system:user:RESET', 'system:user:EDIT'])
          expect(await editor.locator(`[data-grant-none="${grant}"]`).count(), grant).toBe(0);
        expect(await editor.locator('[data-grant="system:user:RESET"]').getAttribute('title')).toBe('允许：解锁用户');
        // The point names in Chinese head the columns.
        for (const label of ['查询', '新增下级', '重置', '重置密码', '导出'])
          expect(await editor.locator('.point-head', { hasText: label }).count(), label).toBeGreaterThan(0);
        // One child granted: its parent's 全部 is half-checked; 全部 on the parent grants each child its own points.
        const parentAll = editor.locator('[data-grant="system:ALL"] .el-checkbox__input');
        await editor.locator('[data-grant="system:audit:SEARCH"]').click();
        await expect.poll(() => parentAll.evaluate((el) => el.classList.contains('is-indeterminate'))).toBe(true);
        await shot(page, `admin-grant-grid-${vp.name}`);
        await parentAll.click();
        await expect.poll(() => parentAll.evaluate((el) => el.classList.contains('is-checked'))).toBe(true);
        await editor.locator('[data-testid="save-grants"]').click();
        await editor.waitFor({ state: 'hidden' });
        const id = (await api('GET', `/api/roles?keyword=totp_${tag}`)).json().data.items[0].id;
        const grants = (await api('GET', `/api/roles/${id}`)).json().data.grants as Array<{
          menuCode: string;
          bits: number;
        }>;
        expect(grants.find((g) => g.menuCode === 'system:login-log')?.bits).toBe(1 | 512);
        expect(grants.find((g) => g.menuCode === 'system:session')?.bits).toBe(1 | 8 | 16);
        await page.context().close();
      });

      it('解锁 lets a locked-out user sign in again; 重置两步验证 removes their TOTP', async () => {
        const locked = `locked-${tag}`;
        const lost = `lostphone-${tag}`;
        await createUser(api, locked);
        const lostId = await createUser(api, lost);
        await suite.t.db.kysely
          .updateTable('users')
          .set({ totp_secret: 'JBSWY3DPEHPK3PXP', totp_enabled_at: new Date().toISOString() })
          .where('id', '=', lostId)
          .execute();
        for (let i = 0; i < 3; i++) expect(await signInStatus(locked, 'wrong-password-9')).toBe(401);
        expect(await signInStatus(locked, PASSWORD)).toBe(429);

        const page = await open(vp);
        await signIn(page);
        await clickMenu(page, 'system', 'system:user');
        const lockedRow = page.locator('[data-page="users"] .el-table__row', { hasText: locked });
        await lockedRow.locator('[data-testid="more-actions"]').click();
        await page.locator('.el-dropdown-menu__item[data-route="POST /api/users/{id}/unlock"]:visible').click();
        await confirmBox(page);
        await page.locator('.el-message', { hasText: `已解锁「${locked}」` }).waitFor();
        expect(await signInStatus(locked, PASSWORD)).toBe(200);

        const lostRow = page.locator('[data-page="users"] .el-table__row', { hasText: lost });
        await lostRow.getByText('已开启').waitFor();
        await lostRow.locator('[data-testid="more-actions"]').click();
        await page.locator('.el-dropdown-menu__item[data-route="POST /api/users/{id}/reset-totp"]:visible').waitFor();
        await page.waitForTimeout(400); // the menu's fade-in, for the picture
        await shot(page, `admin-users-actions-${vp.name}`);
        await lostRow.locator('[data-testid="more-actions"]').click();
        await page.locator('.el-dropdown-menu__item:visible').first().waitFor({ state: 'hidden' });
        await lostRow.locator('[data-testid="more-actions"]').click();
        await page.locator('.el-dropdown-menu__item[data-route="POST /api/users/{id}/reset-totp"]:visible').click();
        await confirmBox(page);
        await page.locator('.el-message', { hasText: `已重置「${lost}」的两步验证` }).waitFor();
        await lostRow.getByText('未开启').waitFor();
        await lostRow.locator('[data-testid="more-actions"]').click();
        const item = page.locator('.el-dropdown-menu__item[data-route="POST /api/users/{id}/reset-totp"]:visible');
        await expect.poll(() => item.getAttribute('aria-disabled')).toBe('true');
        expect(await item.getAttribute('title')).toBe('该用户没有开启两步验证');
        const audit = await suite.t.db.kysely
          .selectFrom('audit_logs')
          .select('action')
          .where('action', 'in', ['user.unlock', 'user.reset-totp'])
          .execute();
        expect(audit.length).toBeGreaterThanOrEqual(2);
        await page.context().close();
      });

      it('a taken username and a taken menu code show under their fields, with the field’s label', async () => {
        const page = await open(vp);
        await signIn(page);
        await clickMenu(page, 'system', 'system:user');
        await page.locator('[data-page="users"] [data-action="ADD"]').click();
        const user = page.locator('[data-dialog="user-form"]');
        await user.locator('input[name="username"]').fill('ADMIN');
        await user.locator('input[name="password"]').fill('a-long-enough-password-7');
        await user.locator('[data-testid="save-user"]').click();
        await user.locator('.el-form-item__error', { hasText: /^用户名无效：用户名已被使用/ }).waitFor();
        expect(await page.locator('.el-message', { hasText: 'username' }).count()).toBe(0);
        await page.keyboard.press('Escape');
        await user.waitFor({ state: 'hidden' });

        await clickMenu(page, 'system', 'system:menu');
        await page.locator('[data-page="menus"] [data-action="ADD"]').first().click();
        const menu = page.locator('[data-dialog="menu-form"]');
        await menu.locator('input[name="code"]').fill('system');
        await menu.locator('input[name="name"]').fill('重复的菜单');
        await menu.locator('.el-dialog__footer .el-button--primary').click();
        await menu.locator('.el-form-item__error', { hasText: /^编码无效：菜单编码已被使用/ }).waitFor();
        await page.context().close();
      });
    });
  }
});
