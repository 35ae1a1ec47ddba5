/**
 * What an operator meets in the admin app every day, at 1440×900 and at 390×844, in Debian's headless Chromium against
 * a real server (sign-in passwords of at least 12 characters, so the server's own policy is what refuses a short one):
 * one's own sign-out, the server's validation message under its field, an unreachable server, the content pages'
 * names for codes, 登录地点 from the offline IP database. Screenshots of the changed pages go to docs/screenshots/.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium } from '../../../test/chromium.js';
import { useBrowserSuite } from '../../../packages/server/test/browser-suite.js';
import { bearer, login, loginFrom } from '../../../packages/server/test/helpers.js';
import { USER_PASSWORD, insertUser } from '../../../packages/server/test/auth-fixtures.js';
import { totpCode } from '../../../packages/server/src/admin/auth/totp.js';
import { adminCall, createUser, PASSWORD } from '../../../packages/server/test/admin-fixtures.js';
import { VIEWPORTS, clickMenu, contextAt, signInAdmin, type Viewport } from './browser.js';

describe.skipIf(!hasChromium)('the operator’s daily work in the admin app', { timeout: 90_000 }, () => {
  // Behind a proxy on this machine: a page may sign in from the address its X-Forwarded-For names (登录地点).
  const suite = useBrowserSuite({ app: 'admin', env: { PASSWORD_MIN_LENGTH: '12', TRUST_PROXY: '127.0.0.1' } });
  const { shot } = suite;

  const open = (vp: Viewport, headers?: Record<string, string>) => suite.open(contextAt(vp, headers));
  const signIn = (page: Page, username?: string, password?: string) =>
    signInAdmin(page, suite.base, username, password);

  for (const vp of VIEWPORTS) {
    describe(`at ${vp.width}×${vp.height}`, () => {
      it('signing out on purpose says 已退出登录, not that the session was ended elsewhere', async () => {
        const page = await open(vp);
        await signIn(page);
        await page.locator('[data-testid="user-menu"]').click();
        await page.locator('[data-testid="logout"]').click();
        await page.waitForURL(/\/admin\/login/);
        await page.locator('.signed-out-reason', { hasText: '已退出登录' }).waitFor();
        await page.waitForTimeout(400); // the message's fade-in, for the picture
        await shot(page, `admin-signed-out-${vp.name}`);
        // The server's session-ended notice for this very logout must not follow as a second, wrong reason.
        await page.waitForTimeout(1500);
        expect(await page.getByText('会话已结束').count()).toBe(0);
        await page.context().close();
      });

      it('a password the server’s policy refuses is explained under 新密码, with its label, not in a toast', async () => {
        const name = `pw-${vp.name}-${Math.random().toString(36).slice(2, 6)}`;
        await createUser(await adminCall(suite.t.app), name);
        const page = await open(vp);
        await signIn(page, name, PASSWORD);
        await page.locator('[data-testid="user-menu"]').click();
        await page.locator('[data-testid="open-password"]').click();
        const dialog = page.locator('[data-dialog="change-password"]');
        await dialog.locator('input[name="old-password"]').fill(PASSWORD);
        await dialog.locator('input[name="new-password"]').fill('abcdefgh1'); // 9 characters: the app's own rule passes
        await dialog.locator('input[name="confirm-password"]').fill('abcdefgh1');
        await dialog.locator('[data-testid="save-password"]').click();
        const error = dialog.locator('.el-form-item__error', { hasText: '新密码无效：密码长度应至少为 12 个字符' });
        await error.waitFor();
        expect(await page.locator('.el-message', { hasText: 'newPassword' }).count()).toBe(0);
        await shot(page, `admin-password-field-error-${vp.name}`);
        await page.context().close();
      });

      it('an unreachable server keeps the session: 无法连接服务器 with a retry, never the sign-in page', async () => {
        const page = await open(vp);
        await signIn(page);
        // The server stops answering: every API request fails as a refused connection would.
        await page.context().route('**/api/**', (r) => r.abort('connectionrefused'));
        await clickMenu(page, 'system', 'system:user', { navigates: false });
        const banner = page.locator('[data-testid="unreachable"]', { hasText: '无法连接服务器' });
        await banner.waitFor();
        expect(new URL(page.url()).pathname).not.toMatch(/login/);
        await shot(page, `admin-unreachable-${vp.name}`);
        // A reload while it is down finds the session still there.
        await page.reload();
        await banner.waitFor();
        expect(new URL(page.url()).pathname).not.toMatch(/login/);
        // Back up: retry carries on, signed in.
        await page.context().unroute('**/api/**');
        await page.locator('[data-testid="unreachable-retry"]').click();
        await banner.waitFor({ state: 'hidden' });
        await page.locator('[data-testid="user-menu"]').waitFor();
        await clickMenu(page, 'system', 'system:user', { navigates: !new URL(page.url()).pathname.endsWith('/users') });
        await page.locator('[data-page="users"] .el-table__row').first().waitFor();
        expect(new URL(page.url()).pathname).toBe('/admin/system/users');
        await page.context().close();
      });

      it('dark mode follows the system, is switched from the header, and is remembered', async () => {
        const page = await open(vp);
        await page.emulateMedia({ colorScheme: 'dark' });
        await signIn(page);
        const isDark = () => page.evaluate(() => document.documentElement.classList.contains('dark'));
        const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        expect(await isDark()).toBe(true); // nothing chosen yet: the system's dark
        await page.locator('[data-testid="toggle-theme"]').click();
        expect(await isDark()).toBe(false);
        const light = await background();
        await page.locator('[data-testid="toggle-theme"]').click();
        expect(await isDark()).toBe(true);
        expect(await background()).not.toBe(light);
        await page.emulateMedia({ colorScheme: 'light' });
        await page.reload();
        await page.locator('[data-testid="user-menu"]').waitFor();
        expect(await isDark()).toBe(true); // the choice outlives the reload and the system's change
        await clickMenu(page, 'system', 'system:user');
        await page.locator('[data-page="users"] .el-table__row').first().waitFor();
        await shot(page, `admin-dark-${vp.name}`);
        await page.locator('[data-testid="toggle-theme"]').click();
        await page.context().close();
      });

      it('every page opens a tab; a tab closes to its neighbour; close others keeps home and this one', async () => {
        const page = await open(vp);
        await signIn(page);
        const tabNames = () => page.locator('[data-testid="page-tabs"] .el-tabs__item').allTextContents();
        await clickMenu(page, 'system', 'system:user');
        await page.locator('[data-page="users"]').waitFor();
        await clickMenu(page, 'system', 'system:role');
        await page.locator('[data-page="roles"]').waitFor();
        await clickMenu(page, 'system', 'system:audit');
        await page.locator('[data-page="audit"]').waitFor();
        expect((await tabNames()).map((n) => n.trim())).toEqual(['首页', '用户管理', '角色管理', '审计日志']);
        // Where the page sits: a breadcrumb on a wide screen, the page's name alone on a phone.
        const crumbs = page.locator('[data-testid="breadcrumb"] .el-breadcrumb__item');
        if (vp.width >= 768)
          expect((await crumbs.allTextContents()).map((c) => c.replace('/', '').trim())).toEqual([
            '系统管理',
            '审计日志',
          ]);
        else expect(await crumbs.count()).toBe(0);
        await shot(page, `admin-tabs-${vp.name}`);
        // A tab click goes to its page.
        await page.locator('[data-testid="page-tabs"] .el-tabs__item', { hasText: '用户管理' }).click();
        await page.locator('[data-page="users"]').waitFor();
        // Closing the shown tab shows its right neighbour.
        await page
          .locator('[data-testid="page-tabs"] .el-tabs__item', { hasText: '用户管理' })
          .locator('.is-icon-close')
          .click();
        await page.locator('[data-page="roles"]').waitFor();
        expect((await tabNames()).map((n) => n.trim())).toEqual(['首页', '角色管理', '审计日志']);
        await page.reload();
        await page.locator('[data-page="roles"]').waitFor();
        expect((await tabNames()).map((n) => n.trim())).toEqual(['首页', '角色管理', '审计日志']);
        await page.locator('[data-testid="tab-actions"]').click();
        await page.locator('[data-testid="tab-menu"] [data-command="closeOthers"]').click();
        await expect.poll(async () => (await tabNames()).map((n) => n.trim())).toEqual(['首页', '角色管理']);
        await page.context().close();
      });

      it('the audit log filters by an action chosen by name from a select', async () => {
        await createUser(await adminCall(suite.t.app), `audited-${vp.name}-${Math.random().toString(36).slice(2, 6)}`);
        const page = await open(vp);
        await signIn(page);
        await clickMenu(page, 'system', 'system:audit');
        const audit = page.locator('[data-page="audit"]');
        await audit.locator('[data-testid="audit-action-filter"]').click();
        await page.locator('.el-select-dropdown__item', { hasText: '开启两步验证' }).waitFor();
        await page.locator('.el-select-dropdown__item', { hasText: '新增用户' }).click();
        const listed = page.waitForResponse(
          (r) => r.url().includes('/api/audit-logs?') && r.url().includes('action=user.create'),
        );
        await audit.locator('.search-form button', { hasText: '搜索' }).click();
        expect((await listed).ok()).toBe(true);
        await audit.locator('.el-table__row', { hasText: '新增用户' }).first().waitFor();
        await page.locator('.el-select-dropdown').first().waitFor({ state: 'hidden' });
        await shot(page, `admin-audit-filter-${vp.name}`);
        await page.context().close();
      });

      it('a content page shows a skeleton while it loads, not 暂无数据', async () => {
        const page = await open(vp);
        await signIn(page);
        // A slow server: the list answers after a second and a half.
        let release!: () => void;
        const held = new Promise<void>((r) => (release = r));
        await page.route('**/api/admin/content/jokes?**', async (r) => {
          await held;
          await r.continue();
        });
        await page.goto(`${suite.base}/admin/content/jokes`);
        const jokes = page.locator('[data-page="content:jokes"]');
        await jokes.locator('[data-testid="list-skeleton"]').waitFor();
        expect(await jokes.getByText('暂无数据').count()).toBe(0);
        await shot(page, `admin-skeleton-${vp.name}`);
        release();
        await jokes.locator('.el-table__row').first().waitFor();
        expect(await jokes.locator('[data-testid="list-skeleton"]').count()).toBe(0);
        await page.context().close();
      });

      it('一言 lists its 内容, names its 分类, offers them in a select; 心情语录 names its 风格', async () => {
        const page = await open(vp);
        await signIn(page);
        await page.goto(`${suite.base}/admin/content/hitokoto`);
        const table = page.locator('[data-page="content:hitokoto"]');
        await table.locator('.el-table__row').first().waitFor();
        const headers = await table.locator('.el-table__header th').allInnerTexts();
        expect(headers.map((h) => h.trim())).toEqual(expect.arrayContaining(['分类', '内容', '出处', '作者']));
        const typeCells = await table.locator('.el-table__body tr td:nth-child(2)').allInnerTexts();
        expect(typeCells.length).toBeGreaterThan(0);
        for (const cell of typeCells) expect(cell.trim()).not.toMatch(/^[a-l]$/);
        expect(await table.locator('.el-table__body').textContent()).not.toContain('null');
        await shot(page, `admin-hitokoto-${vp.name}`);
        await page.locator('[data-page="content:hitokoto"] [data-action="ADD"]').first().click();
        const form = page.locator('[data-dialog="content-form"]');
        await form.locator('.el-select').first().click();
        await page.locator('.el-select-dropdown__item', { hasText: '抖机灵' }).waitFor();
        expect(await form.locator('input[name="from_who"]').getAttribute('placeholder')).toBe('可不填');
        await shot(page, `admin-hitokoto-form-${vp.name}`);
        await page.keyboard.press('Escape');

        await page.goto(`${suite.base}/admin/content/mood-quotes`);
        const mood = page.locator('[data-page="content:mood-quotes"]');
        await mood.locator('.el-table__row').first().waitFor();
        const body = (await mood.locator('.el-table__body').textContent()) ?? '';
        expect(body).not.toMatch(/\b(diary|toxic|flattery|love|caption)\b/);
        expect(body).toMatch(/日记|毒鸡汤|彩虹屁|情话|朋友圈文案/);
        await page.context().close();
      });

      it('the login log, online sessions and one’s own devices show 登录地点: a real place, 本机, 内网地址', async () => {
        const shenzhen = '广东省 深圳市 电信';
        // The same account signed in from this machine and from an office network; this page from Shenzhen.
        await login(suite.t.app);
        await loginFrom(suite.t.app, '192.168.1.20');
        const page = await open(vp, { 'x-forwarded-for': '14.21.64.1' });
        await signIn(page);
        /** The 登录地点 cells of a list; on a phone the column is scrolled to the table's left edge (clear of a fixed one). */
        const places = async (scope: string) => {
          const cells = page.locator(`${scope} [data-col="location"]`);
          const first = cells.filter({ hasText: shenzhen }).first();
          await first.scrollIntoViewIfNeeded();
          if (vp.name === 'phone')
            await first.evaluate((el) => {
              const wrap = el.closest('.el-scrollbar__wrap');
              const cell = el.closest('td');
              if (wrap && cell) wrap.scrollLeft = cell.offsetLeft;
            });
          return (await cells.allInnerTexts()).map((c) => c.trim());
        };
        const header = (scope: string) => page.locator(`${scope} .el-table__header th`, { hasText: '登录地点' });

        await clickMenu(page, 'system', 'system:login-log');
        await header('[data-page="login-logs"]').waitFor();
        expect((await places('[data-page="login-logs"]')).slice(0, 3)).toEqual([shenzhen, '内网地址', '本机']);
        await shot(page, `admin-login-log-${vp.name}`);

        await clickMenu(page, 'system', 'system:session');
        await header('[data-page="sessions"]').waitFor();
        expect(await places('[data-page="sessions"]')).toEqual(expect.arrayContaining([shenzhen, '内网地址', '本机']));
        await shot(page, `admin-sessions-${vp.name}`);

        await page.locator('[data-testid="user-menu"]').click();
        await page.locator('[data-testid="open-profile"]').click();
        const current = page.locator('[data-testid="own-sessions"] .el-table__row', { hasText: '当前设备' });
        await current.locator('[data-col="location"]', { hasText: shenzhen }).waitFor();
        expect(await places('[data-testid="own-sessions"]')).toEqual(expect.arrayContaining(['内网地址', '本机']));
        await shot(page, `admin-profile-${vp.name}`);

        // In English, the same place in English.
        await page.evaluate(() => localStorage.setItem('tianji.locale', 'en'));
        await page.reload();
        await page
          .locator('[data-testid="own-sessions"] .el-table__row:has(.el-tag.current)')
          .locator('[data-col="location"]', { hasText: 'Shenzhen, Guangdong (China Telecom)' })
          .waitFor();
        await page.context().close();
      });
    });
  }

  it('turning on two-step sign-in offers to sign out the other devices, and does so', async () => {
    const username = `twofactor${Date.now() % 100_000}`;
    await insertUser(suite.t.db, username);
    const elsewhere = await suite.t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username, password: USER_PASSWORD },
    });
    const page = await open(VIEWPORTS[0]);
    await signIn(page, username, USER_PASSWORD);
    await page.locator('[data-testid="user-menu"]').click();
    await page.locator('[data-testid="open-profile"]').click();
    await page.locator('[data-testid="totp-start"]').click();
    const secret = (await page.locator('[data-testid="totp-secret"]').textContent())!.trim();
    await page.fill('input[name="totp-code"]', totpCode(secret, Date.now()));
    // Offered, and ticked: whoever turns it on because the password may have leaked wants the others out.
    expect(await page.locator('[data-testid="totp-sign-out-others"] input').isChecked()).toBe(true);
    await shot(page, 'admin-two-factor-enable-desktop');
    const devices = page.locator('[data-testid="own-sessions"] .el-table__row');
    await expect.poll(() => devices.count()).toBe(2);
    await page.click('[data-testid="totp-enable"]');
    await page.locator('.el-message', { hasText: '1 个其他设备已退出登录' }).waitFor();
    // 我的登录设备 beside the card drops the signed-out device at once, without a reload.
    await expect.poll(() => devices.count()).toBe(1);
    const me = await suite.t.app.inject({ url: '/api/auth/me', headers: bearer(elsewhere.json().data.accessToken) });
    expect(me.statusCode).toBe(401);
    await page.close();
  });

  it('the super administrator role is described in Chinese', async () => {
    const roles = await (await adminCall(suite.t.app))('GET', '/api/roles');
    const superRole = roles.json().data.items.find((r: { code: string }) => r.code === 'super_admin');
    expect(superRole.description).toBe('内置角色：拥有所有菜单的全部权限');
  });
});
