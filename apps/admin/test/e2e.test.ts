/**
 * The admin app end to end in Debian's headless Chromium (playwright-core), against a real server (buildApp on a
 * fresh in-memory SQLite, listening on 127.0.0.1, access tokens living 3 s) that serves the built app at /admin.
 * Skipped with a note when /usr/bin/chromium is missing, unless TIANJI_E2E=1 (CI), where that is a failure.
 * Screenshots of the key pages go to test-results/admin-e2e/.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium } from '../../../test/chromium.js';
import { useBrowserSuite } from '../../../packages/server/test/browser-suite.js';
import { ADMIN, bearer, login } from '../../../packages/server/test/helpers.js';
import {
  adminCall,
  createRole,
  createUser,
  PASSWORD,
  userWithGrants,
} from '../../../packages/server/test/admin-fixtures.js';
import { initialJs } from '../scripts/initial-js-size.mjs';
import { DIST, ROOT, signInAdmin } from './browser.js';

const TTL_S = 4;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!hasChromium)('admin app in Chromium', { timeout: 60_000 }, () => {
  // A failed step leaves a picture of every open page (FAILED-*.png), to see what the browser showed.
  const suite = useBrowserSuite({
    app: 'admin',
    env: { ACCESS_TOKEN_TTL: `${TTL_S}s` },
    shots: path.join(ROOT, 'test-results/admin-e2e'),
    failureShots: 'FAILED-',
  });
  const suffix = Math.random().toString(36).slice(2, 7);
  const roleName = `只读用户${suffix}`;
  const user = { username: `viewer-${suffix}`, password: 'viewer-password-1' };

  const open = () => suite.open({ viewport: { width: 1366, height: 860 } });
  const shot = (page: Page, name: string) => suite.shot(page, name, { fullPage: true });

  /** Signs in and waits for the side menu too: the tests read its entries at once. */
  async function signIn(page: Page, username: string, password: string) {
    await signInAdmin(page, suite.base, username, password);
    await page.locator('.side-menu').waitFor();
  }

  const menuCodes = (page: Page) =>
    page.locator('.side-menu [data-menu]').evaluateAll((els) => els.map((e) => e.getAttribute('data-menu')));
  const openMenu = async (page: Page, parent: string, leaf: string) => {
    await page.bringToFront(); // a page in the background renders no frames, so nothing in it counts as "stable"
    const sub = page.locator(`.side-menu [data-menu="${parent}"]`);
    if (!(await sub.evaluate((el) => el.classList.contains('is-opened'))))
      await sub.locator('.el-sub-menu__title').click();
    await page.locator(`.side-menu [data-menu="${leaf}"]`).click();
  };
  const dialog = (page: Page, title: string) => page.getByRole('dialog', { name: title });

  let admin: Page;
  let viewer: Page;

  it('one Enter on a wrong password sends exactly one request and says so in Chinese', async () => {
    const page = await open();
    let logins = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/auth/login')) logins++;
    });
    await page.goto(`${suite.base}/admin/`);
    await page.waitForURL(/\/admin\/login/);
    await page.fill('input[name="username"]', 'nobody-here');
    await page.fill('input[name="password"]', 'wrong-password');
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/auth/login'));
    await page.press('input[name="password"]', 'Enter');
    await answered;
    await page.getByText('用户名或密码错误').waitFor();
    // Both key events were handled before the first answer arrived: a second submit would already have been sent.
    expect(logins).toBe(1);
    await page.close();
  });

  it('an operator forces a user out and that user’s open tab shows why, without any click', async () => {
    const { accessToken } = await login(suite.t.app);
    const created = await suite.t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: bearer(accessToken),
      payload: { username: `forced-${suffix}`, password: 'forced-password-1' },
    });
    const page = await open();
    // The tab holds its event stream open (its headers arrive at once); the operator acts elsewhere.
    const streaming = page.waitForResponse((r) => r.url().endsWith('/api/auth/events'), { timeout: 30_000 });
    await signIn(page, `forced-${suffix}`, 'forced-password-1');
    await streaming;
    // A token of its own: the one above may have expired (TTL_S) while a busy machine signed the tab in.
    const out = await suite.t.app.inject({
      method: 'POST',
      url: `/api/users/${created.json().data.id}/force-logout`,
      headers: bearer((await login(suite.t.app)).accessToken),
    });
    expect(out.json().data.ended).toBe(1);
    await page.locator('.signed-out-reason', { hasText: '你已被管理员强制下线' }).waitFor();
    await page.waitForURL(/\/admin\/login/);
    await page.close();
  });

  it('the super administrator signs in and sees every menu', async () => {
    admin = await open();
    await admin.goto(`${suite.base}/`);
    await admin.waitForURL(/\/admin\/login/); // / → /admin/ → the sign-in page
    await shot(admin, '01-login');
    await signIn(admin, ADMIN.username, ADMIN.password);
    expect(await menuCodes(admin)).toEqual(
      expect.arrayContaining([
        'home',
        'system',
        'system:user',
        'system:role',
        'system:menu',
        'system:audit',
        'content',
        'monitor',
      ]),
    );
    await expect.poll(() => admin.locator('[data-testid="docs-link"]').getAttribute('href')).toBe('/docs');
    await shot(admin, '02-home');
  });

  it('creates a role that grants only SEARCH on users, in the grant editor', async () => {
    await openMenu(admin, 'system', 'system:role');
    await admin.locator('[data-page="roles"] [data-action="ADD"]').click();
    const form = dialog(admin, '新增角色');
    await form.locator('input[name="code"]').fill(`viewer_${suffix}`);
    await form.locator('input[name="name"]').fill(roleName);
    await form.locator('[data-testid="save-role"]').click();
    const row = admin.locator('[data-page="roles"] .el-table__row', { hasText: roleName });
    await row.locator('[data-action="GRANT"]').click();
    const editor = dialog(admin, `授权：${roleName}`);
    await editor.locator('[data-grant="system:user:SEARCH"]').click();
    // every point's label and icon heads a column
    for (const label of ['查询', '新增', '编辑', '删除', '批量删除', '新增下级', '重置', '重置密码', '授权', '导出'])
      await expect.poll(() => editor.locator('.point-head', { hasText: label }).count()).toBeGreaterThan(0);
    expect(await editor.locator('.point-head svg').count()).toBe(10);
    await shot(admin, '03-grant-editor');
    await editor.locator('[data-testid="save-grants"]').click();
    await editor.waitFor({ state: 'hidden' });
  });

  it('creates a user holding that role', async () => {
    await openMenu(admin, 'system', 'system:user');
    await admin.locator('[data-page="users"] [data-action="ADD"]').click();
    const form = dialog(admin, '新增用户');
    await form.locator('input[name="username"]').fill(user.username);
    await form.locator('input[name="password"]').fill(user.password);
    await form.locator('.el-select').click();
    await admin.locator('.el-select-dropdown__item', { hasText: roleName }).click();
    await form.locator('.el-dialog__title').click(); // close the dropdown
    await form.locator('[data-testid="save-user"]').click();
    await admin.locator('[data-page="users"] .el-table__row', { hasText: user.username }).waitFor();
    await shot(admin, '04-users-admin');
  });

  it('a user an operator created must first change the password, then carries on', async () => {
    const first = await open();
    await signIn(first, user.username, user.password);
    // Every other route answers 403 PASSWORD_CHANGE_REQUIRED until then: the app opens the change-password form.
    await first.waitForURL(/\/admin\/profile/);
    await first.locator('.el-message', { hasText: '首次登录请先修改密码' }).waitFor();
    const form = dialog(first, '修改密码');
    await form.locator('input[name="old-password"]').fill(user.password);
    await form.locator('input[name="new-password"]').fill('viewer-chosen-pass-7');
    await form.locator('input[name="confirm-password"]').fill('viewer-chosen-pass-7');
    await shot(first, '04b-must-change-password');
    await form.locator('[data-testid="save-password"]').click();
    await first.locator('.el-message', { hasText: '密码已修改' }).waitFor();
    user.password = 'viewer-chosen-pass-7';
    await openMenu(first, 'system', 'system:user');
    await first.locator('[data-page="users"] .el-table__row', { hasText: user.username }).waitFor();
    await first.close();
  });

  it('that user sees the users page with no add/edit/delete buttons and no other menu', async () => {
    viewer = await open();
    await signIn(viewer, user.username, user.password);
    expect((await menuCodes(viewer)).sort()).toEqual(['home', 'system', 'system:user']);
    await openMenu(viewer, 'system', 'system:user');
    await viewer.locator('[data-page="users"] .el-table__row', { hasText: user.username }).waitFor();
    expect(await viewer.locator('[data-page="users"] [data-action="SEARCH"]').count()).toBe(1);
    for (const action of ['ADD', 'EDIT', 'DELETE', 'BATCH_DELETE', 'RESET_PASSWORD', 'GRANT', 'EXPORT']) {
      expect(await viewer.locator(`[data-page="users"] [data-action="${action}"]`).count(), action).toBe(0);
    }
    // Clearing the search form needs no permission (its button only borrows the 重置 icon and name).
    expect(await viewer.locator('[data-page="users"] [data-action="RESET"]').count()).toBe(1);
    await shot(viewer, '05-users-search-only');
  });

  async function setGrant(point: string, on: boolean) {
    await openMenu(admin, 'system', 'system:role');
    await admin
      .locator('[data-page="roles"] .el-table__row', { hasText: roleName })
      .locator('[data-action="GRANT"]')
      .click();
    const editor = dialog(admin, `授权：${roleName}`);
    const box = editor.locator(`[data-grant="system:user:${point}"]`);
    await box.waitFor();
    if ((await box.evaluate((el) => el.classList.contains('is-checked'))) !== on) await box.click();
    await editor.locator('[data-testid="save-grants"]').click();
    await editor.waitFor({ state: 'hidden' });
  }

  it('after EDIT is granted, the edit button shows once the menus refresh', async () => {
    await setGrant('EDIT', true);
    await viewer.locator('.side-menu [data-menu="home"]').click();
    await openMenu(viewer, 'system', 'system:user'); // navigation reloads /api/auth/me
    await viewer.locator('[data-page="users"] [data-action="EDIT"]').first().waitFor();
    expect(await viewer.locator('[data-page="users"] [data-action="DELETE"]').count()).toBe(0);
    await shot(viewer, '06-users-with-edit');
  });

  it('when the server answers 403 after a revoke, the app says 无权限 and hides the button', async () => {
    await setGrant('EDIT', false);
    await viewer.bringToFront();
    // The viewer's page still shows the button from before: the server decides.
    await viewer
      .locator('[data-page="users"] .el-table__row', { hasText: user.username })
      .locator('[data-action="EDIT"]')
      .click();
    const form = dialog(viewer, '编辑用户');
    await form.locator('input[name="nickname"]').fill('看客');
    await form.locator('[data-testid="save-user"]').click();
    await viewer.locator('.el-message', { hasText: '无权限' }).waitFor();
    await expect.poll(() => viewer.locator('[data-page="users"] [data-action="EDIT"]').count()).toBe(0);
    await shot(viewer, '07-forbidden');
    await form.locator('.el-dialog__headerbtn').click();
    await form.waitFor({ state: 'hidden' });
  });

  it('two tabs whose access tokens expire at once refresh only once and both stay signed in', async () => {
    const tab1 = await open();
    const context = tab1.context();
    await signIn(tab1, ADMIN.username, ADMIN.password);
    const tab2 = await context.newPage();
    await tab2.goto(`${suite.base}/admin/`); // resumes the session from localStorage
    await tab2.locator('.side-menu').waitFor();
    await tab1.locator('.side-menu [data-menu="home"]').click(); // tab1 now holds tab2's handed-over token
    await sleep(TTL_S * 1000 + 300); // both access tokens are now expired
    // What a user would see break: both tabs refreshing with the one token (two refreshes in flight at once, or the
    // second one replaying the voided token and being refused). A refresh that starts after the first has answered,
    // and is itself answered 200, is a later expiry (on a loaded machine, rendering can outlast the 4 s lifetime).
    const isRefresh = (r: { url(): string }) => r.url().endsWith('/api/auth/refresh');
    let refreshes = 0;
    let inFlight = 0;
    let overlapping = 0;
    const statuses: number[] = [];
    context.on('request', (r) => {
      if (!isRefresh(r)) return;
      refreshes++;
      if (inFlight > 0) overlapping++;
      inFlight++;
    });
    context.on('requestfinished', async (r) => {
      if (!isRefresh(r)) return;
      inFlight--;
      statuses.push((await r.response())?.status() ?? 0);
    });
    context.on('requestfailed', (r) => {
      if (!isRefresh(r)) return;
      inFlight--;
      statuses.push(0);
    });
    // Click both at once: Playwright's clicks on two pages would run one after the other, seconds apart.
    const click = (tab: Page, menu: string) =>
      tab.evaluate((m) => (document.querySelector(`.side-menu [data-menu="${m}"]`) as HTMLElement).click(), menu);
    await Promise.all([click(tab1, 'system:user'), click(tab2, 'system:role')]);
    await Promise.all([
      tab1.locator('[data-page="users"] .el-table__row').first().waitFor(),
      tab2.locator('[data-page="roles"] .el-table__row').first().waitFor(),
    ]);
    expect(refreshes).toBeGreaterThanOrEqual(1);
    expect(overlapping).toBe(0);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(new URL(tab1.url()).pathname).toBe('/admin/system/users');
    expect(new URL(tab2.url()).pathname).toBe('/admin/system/roles');
    await shot(tab2, '08-second-tab-roles');
  });

  it('a password change in one browser signs the other out at once, saying why', async () => {
    const other = await open();
    await signIn(other, user.username, user.password);
    await other.locator('[data-testid="user-menu"]').click();
    await other.locator('[data-testid="open-password"]').click();
    const form = dialog(other, '修改密码');
    await form.locator('input[name="old-password"]').fill(user.password);
    await form.locator('input[name="new-password"]').fill('viewer-password-2');
    await form.locator('input[name="confirm-password"]').fill('viewer-password-2');
    await form.locator('[data-testid="save-password"]').click();
    await other.locator('.el-message', { hasText: '密码已修改' }).waitFor();

    // The first browser hears it on its event stream and is back at the sign-in page without a click, told why.
    await viewer.bringToFront();
    await viewer.waitForURL(/\/admin\/login/);
    await viewer.locator('.signed-out-reason', { hasText: '密码已修改，请使用新密码重新登录' }).waitFor();
    await shot(viewer, '09-signed-out');
    // The browser that changed it carries on.
    await openMenu(other, 'system', 'system:user');
    await other.locator('[data-page="users"] .el-table__row').first().waitFor();
    expect(new URL(other.url()).pathname).toBe('/admin/system/users');
  });

  it('the menu tree editor and the audit log render', async () => {
    await openMenu(admin, 'system', 'system:menu');
    await admin.locator('[data-page="menus"] [data-action="ADD_CHILD"]').first().waitFor();
    await shot(admin, '10-menus');
    await openMenu(admin, 'system', 'system:audit');
    await admin.locator('[data-page="audit"] .el-table__row', { hasText: 'role.create' }).first().waitFor();
    await shot(admin, '11-audit-log');
  });

  it('online sessions list the signed-in browsers with their device; an operator signs one out; the login log shows it', async () => {
    await openMenu(admin, 'system', 'system:session');
    const row = admin.locator('[data-page="sessions"] .el-table__row', { hasText: user.username }).first();
    await row.waitFor();
    expect(await row.textContent()).toMatch(/Chrome \d+ · Linux.*网页/);
    await shot(admin, '12-sessions');
    await row.locator('[data-action="DELETE"]').first().click();
    await admin.getByRole('dialog').getByRole('button', { name: '确定' }).click();
    await admin.locator('.el-message', { hasText: '已结束 1 个会话' }).waitFor();
    await openMenu(admin, 'system', 'system:login-log');
    await admin.locator('[data-page="login-logs"] .el-table__row', { hasText: '会话结束' }).first().waitFor();
    await admin.locator('[data-page="login-logs"] .el-table__row', { hasText: '用户不存在' }).first().waitFor();
    await shot(admin, '13-login-log');
  });

  it('content libraries, holiday schedules, the dashboard and English render', async () => {
    await openMenu(admin, 'content', 'content:holidays');
    await admin.locator('[data-page="content:holidays"] .el-table__row').first().waitFor();
    await admin.locator('[data-page="content:holidays"] [data-action="EDIT"]').first().click();
    await dialog(admin, '节假日安排 · 编辑条目').locator('input[name="name"]').first().waitFor();
    await shot(admin, '12-holiday-editor');
    await admin.keyboard.press('Escape');
    await fetch(`${suite.base}/api/almanac`); // some public traffic for the charts
    // A caller's mistake (answered 500 by the public contract) is a caller error, not a server fault.
    expect((await fetch(`${suite.base}/api/almanac?date=not-a-date`)).status).toBe(500);
    await openMenu(admin, 'monitor', 'monitor:api');
    await admin.locator('[data-page="usage"] figure svg').first().waitFor();
    await admin.locator('[data-testid="chart-server-errors"]').waitFor();
    const almanac = admin.locator('[data-page="usage"] .el-table__row', { hasText: '/api/almanac' });
    // Columns: endpoint, requests, server faults, fault rate, caller errors, p99.
    expect(await almanac.locator('td').nth(2).textContent()).toBe('0');
    expect(Number(await almanac.locator('td').nth(4).textContent())).toBeGreaterThanOrEqual(1);
    await shot(admin, '13-usage');
    await admin.locator('[data-testid="toggle-locale"]').click();
    await admin.locator('.side-menu', { hasText: 'API usage' }).waitFor();
    await shot(admin, '14-english');
  });

  it('a delegated operator sees what it may not do disabled, with the reason on hover', async () => {
    const api = await adminCall(suite.t.app);
    await userWithGrants(suite.t.app, api, `op-${suffix}`, {
      'system:user': 1 | 4 | 8 | 128 | 256,
      'system:role': 1 | 256,
      'system:audit': 1,
    });
    await createUser(api, `boss-${suffix}`, [await createRole(api, `boss_${suffix}`, { 'system:audit': 1 | 512 })]);
    await createRole(api, `weak_${suffix}`, { 'system:audit': 1 });
    const page = await open();
    await signIn(page, `op-${suffix}`, PASSWORD);
    await openMenu(page, 'system', 'system:user');
    const bossRow = page.locator('[data-page="users"] .el-table__row', { hasText: `boss-${suffix}` });
    const reset = bossRow.locator('[data-action="RESET_PASSWORD"]');
    expect(await reset.isDisabled()).toBe(true);
    await reset.locator('xpath=..').hover();
    await page
      .locator('.el-popper', {
        hasText: `用户「boss-${suffix}」拥有你没有的权限（「审计日志」的导出权限），你不能操作该用户`,
      })
      .waitFor();
    await shot(page, '15-escalation-disabled');
    // Its own row: no changing its own roles.
    const ownRow = page.locator('[data-page="users"] .el-table__row', { hasText: `op-${suffix}` });
    expect(await ownRow.locator('[data-action="GRANT"]').isDisabled()).toBe(true);
    // Nor resetting its own password (that takes the current one, on the profile page).
    expect(await ownRow.locator('[data-action="RESET_PASSWORD"]').isDisabled()).toBe(true);
    // Assigning roles to someone it covers: the role holding more than it is disabled.
    await page
      .locator('[data-page="users"] .el-table__row', { hasText: `viewer-${suffix}` })
      .locator('[data-action="GRANT"]')
      .click();
    const assign = dialog(page, `分配角色 · viewer-${suffix}`);
    await expect
      .poll(() => assign.locator('.el-checkbox', { hasText: `角色 boss_${suffix}` }).getAttribute('class'))
      .toContain('is-disabled');
    expect(
      await assign.locator('.el-checkbox', { hasText: `角色 weak_${suffix}` }).getAttribute('class'),
    ).not.toContain('is-disabled');
    await page.keyboard.press('Escape');
    // The grant editor: points it lacks cannot be ticked.
    await openMenu(page, 'system', 'system:role');
    await page
      .locator('[data-page="roles"] .el-table__row', { hasText: `weak_${suffix}` })
      .locator('[data-action="GRANT"]')
      .click();
    const editor = dialog(page, `授权：角色 weak_${suffix}`);
    await editor.locator('[data-grant="system:audit:EXPORT"]').waitFor();
    expect(await editor.locator('[data-grant="system:audit:EXPORT"]').getAttribute('class')).toContain('is-disabled');
    expect(await editor.locator('[data-grant="system:audit:SEARCH"]').getAttribute('class')).not.toContain(
      'is-disabled',
    );
    await shot(page, '16-escalation-grant-editor');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, '17-escalation-grant-editor-phone');
  });

  it('users and the audit log show dates as Beijing time YYYY-MM-DD HH:mm', async () => {
    await admin.locator('[data-testid="toggle-locale"]').click(); // back from English to Chinese
    await admin.locator('.side-menu', { hasText: '用户管理' }).waitFor();
    await openMenu(admin, 'system', 'system:user');
    const row = admin.locator('[data-page="users"] .el-table__row', { hasText: user.username });
    await row.waitFor();
    const { accessToken } = await login(suite.t.app);
    const listed = await suite.t.app.inject({
      method: 'GET',
      url: `/api/users?keyword=${user.username}`,
      headers: bearer(accessToken),
    });
    const createdAt = new Date(listed.json().data.items[0].createdAt);
    const beijing = new Date(createdAt.getTime() + 8 * 3600_000).toISOString().slice(0, 16).replace('T', ' ');
    expect(await row.textContent()).toContain(beijing);
    await openMenu(admin, 'system', 'system:audit');
    const first = admin.locator('[data-page="audit"] .el-table__row').first();
    await first.waitFor();
    expect(await first.locator('td').first().textContent()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  });

  it('the audit log names the action in Chinese, the target by name, and shows what changed before and after', async () => {
    const api = await adminCall(suite.t.app);
    const id = (await api('GET', `/api/users?keyword=${user.username}`)).json().data.items[0].id;
    await api('PATCH', `/api/users/${id}`, { nickname: '审计前' });
    await api('PATCH', `/api/users/${id}`, { nickname: '审计后' });
    await openMenu(admin, 'system', 'system:audit');
    await admin.locator('[data-page="audit"] [data-action="SEARCH"]').click();
    const row = admin.locator('[data-page="audit"] .el-table__row', { hasText: '编辑用户' }).first();
    await row.waitFor();
    expect(await row.textContent()).toContain(user.username);
    expect(await row.textContent()).toContain(id);
    await row.locator('[data-testid="audit-diff-open"]').click();
    const diff = admin.locator('[data-testid="audit-diff"] .el-table__row', { hasText: '昵称' });
    await diff.waitFor();
    expect(await diff.locator('.before').textContent()).toBe('审计前');
    expect(await diff.locator('.after').textContent()).toBe('审计后');
    await shot(admin, '18-audit-diff');
    await admin.keyboard.press('Escape');
  });

  it('the profile page, reached from the user menu, saves contact details and ends another device', async () => {
    await login(suite.t.app); // the same account signed in elsewhere
    await admin.bringToFront();
    // The profile answer arrives while the user is typing: the edit must not be overwritten and saved as blanks.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await admin.route(
      '**/api/auth/profile',
      async (r) => {
        const answer = await r.fetch();
        await held;
        await r.fulfill({ response: answer });
      },
      { times: 1 }, // the page's first request is that GET
    );
    const arrived = admin.waitForResponse((r) => r.url().endsWith('/api/auth/profile'));
    await admin.locator('[data-testid="user-menu"]').click();
    await admin.locator('[data-testid="open-profile"]').click();
    await admin.waitForURL(/\/admin\/profile$/);
    const typed = admin.locator('[data-page="profile"] input[name="email"]').fill('admin@example.com');
    await sleep(300);
    release();
    await typed;
    await (await arrived).finished();
    await admin.locator('[data-testid="save-profile"]').click();
    await admin.locator('.el-message', { hasText: '已保存' }).waitFor();
    const rows = admin.locator('[data-testid="own-sessions"] .el-table__row');
    await rows.first().waitFor();
    const before = await rows.count();
    expect(before).toBeGreaterThanOrEqual(2);
    expect(await rows.filter({ hasText: '当前设备' }).count()).toBe(1);
    await admin.locator('[data-slot="two-factor"]').waitFor();
    await shot(admin, '19-profile');
    await rows.filter({ hasNotText: '当前设备' }).first().locator('[data-action="END_SESSION"]').click();
    await admin.getByRole('dialog').getByRole('button', { name: '确定' }).click();
    await admin.locator('.el-message', { hasText: '已结束 1 个会话' }).waitFor();
    await expect.poll(() => rows.count()).toBe(before - 1);
    const mine = await suite.t.app.inject({
      method: 'GET',
      url: '/api/auth/profile',
      headers: bearer((await login(suite.t.app)).accessToken),
    });
    expect(mine.json().data.email).toBe('admin@example.com');
    await admin.setViewportSize({ width: 390, height: 844 });
    await shot(admin, 'phone-profile');
    await admin.setViewportSize({ width: 1366, height: 860 });
  });

  it('on a 390×844 phone the menu opens from the hamburger, sign-out is reachable and nothing overflows', async () => {
    const page = await suite.open({ viewport: { width: 390, height: 844 } });
    await signInAdmin(page, suite.base);
    await page.locator('[data-testid="menu-toggle"]').waitFor();
    expect(await page.locator('.side-menu').isVisible()).toBe(false);
    await page.locator('[data-testid="mobile-banner"] a[href="/m/"]').waitFor();
    await shot(page, 'phone-01-home');
    await page.locator('[data-testid="menu-toggle"]').click();
    await openMenu(page, 'system', 'system:user');
    await page.locator('[data-page="users"] .el-table__row').first().waitFor();
    await page.locator('.side-menu').waitFor({ state: 'hidden' });
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await shot(page, 'phone-02-users');
    for (const [parent, leaf, name] of [
      ['system', 'system:audit', 'audit'],
      ['system', 'system:session', 'sessions'],
      ['system', 'system:role', 'roles'],
      ['system', 'system:menu', 'menus'],
      ['system', 'system:login-log', 'login-logs'],
    ]) {
      await page.locator('[data-testid="menu-toggle"]').click();
      await openMenu(page, parent, leaf);
      await page.locator(`[data-page="${name}"] .el-table__row`).first().waitFor();
      await page.locator('.side-menu').waitFor({ state: 'hidden' });
      expect(await overflow(), name).toBeLessThanOrEqual(0);
      await shot(page, `phone-${name}`);
    }
    // The banner goes away for good once dismissed.
    await page.locator('[data-testid="mobile-banner"] .el-alert__close-btn').click();
    await page.reload();
    await page.locator('[data-testid="menu-toggle"]').waitFor();
    expect(await page.locator('[data-testid="mobile-banner"]').count()).toBe(0);
    await page.locator('[data-testid="user-menu"]').click();
    await page.locator('[data-testid="logout"]').click();
    await page.waitForURL(/\/admin\/login/);
  });

  it('the initial JavaScript stays under 500 KB gzipped', () => {
    const { gzip } = initialJs(`${DIST}/`);
    console.log(`[tianji e2e] initial JavaScript of the admin app: ${(gzip / 1024).toFixed(1)} KiB gzipped`);
    expect(gzip).toBeLessThan(500 * 1024);
  });
});
