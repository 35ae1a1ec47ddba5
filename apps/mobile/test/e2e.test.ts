/**
 * The phone app end to end in Debian's headless Chromium at 390×844 (an iPhone-sized viewport, touch), against a
 * real server (buildApp on a fresh in-memory SQLite, listening on 127.0.0.1) that serves the built app at /m/.
 * Skipped with a note when /usr/bin/chromium is missing, unless TIANJI_E2E=1, where that is a failure.
 * Screenshots of every page go to test-results/mobile-*.png.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from '../../../test/chromium.js';
import { useBrowserSuite } from '../../../packages/server/test/browser-suite.js';
import { login } from '../../../packages/server/test/helpers.js';
import {
  adminCall,
  createUser,
  PASSWORD,
  userWithGrants,
  type Call,
} from '../../../packages/server/test/admin-fixtures.js';
import { ROOT, signInMobile } from './browser.js';

const SEARCH = 1;
const EDIT = 4;
const DELETE = 8;
const RESET = 64;
const RESET_PASSWORD = 128;
const ADD = 2;

describe.skipIf(!hasChromium)('phone app in Chromium at 390×844', { timeout: 90_000 }, () => {
  // A failed step leaves a picture of every open page (test-results/mobile-FAILED-*.png).
  const suite = useBrowserSuite({
    app: 'mobile',
    shots: path.join(ROOT, 'test-results'),
    failureShots: 'mobile-FAILED-',
  });
  let api: Call;
  const suffix = Math.random().toString(36).slice(2, 7);
  let operator: { id: string; name: string };
  let viewer: { id: string; name: string };

  beforeAll(async () => {
    api = await adminCall(suite.t.app);
    // The operator may disable users (EDIT), reset passwords, end sessions, read the logs, usage and add content.
    const op = await userWithGrants(suite.t.app, api, `op-${suffix}`, {
      'system:user': SEARCH | EDIT | RESET_PASSWORD,
      'system:session': SEARCH | DELETE,
      'system:login-log': SEARCH,
      'monitor:api': SEARCH,
      'content:hitokoto': SEARCH | ADD,
    });
    operator = { id: op.id, name: `op-${suffix}` };
    // The viewer may only look: no EDIT bit, so no disable button.
    const v = await userWithGrants(suite.t.app, api, `viewer-${suffix}`, {
      'system:user': SEARCH,
      'system:session': SEARCH,
    });
    viewer = { id: v.id, name: `viewer-${suffix}` };
  });

  /** A phone page; service workers blocked but in the install test: every other request goes to the server as it is. */
  const newPage = (serviceWorkers: 'block' | 'allow' = 'block') =>
    suite.open({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      serviceWorkers,
    });
  const shot = (page: Page, name: string) => suite.shot(page, `mobile-${name}`, { fullPage: true });

  const signIn = (page: Page, username: string, password = PASSWORD) =>
    signInMobile(page, suite.base, username, password);
  const confirmDialog = (page: Page) => page.locator('.van-dialog__confirm').click();

  it('signs in as client kind mobile and shows the home page with health and today’s usage', async () => {
    // Today's public API traffic: the home page counts its calls and the errors among them.
    const statuses = [];
    for (const q of ['year=2026', 'year=2026', 'year=99999'])
      statuses.push((await fetch(`${suite.base}/api/holiday?${q}`)).status);
    const errors = statuses.filter((s) => s >= 400).length;
    expect(errors).toBeGreaterThan(0);
    expect(errors).toBeLessThan(3);
    const page = await newPage();
    await page.goto(`${suite.base}/m/`);
    await page.waitForURL(/\/m\/login/);
    await shot(page, 'login');
    await signIn(page, operator.name);
    await page.locator('[data-testid="health"] .van-tag', { hasText: '正常' }).waitFor();
    await page.locator('[data-testid="usage-today"] .van-cell', { hasText: '/api/holiday' }).waitFor();
    expect(await page.locator('[data-testid="usage-requests"]').textContent()).toBe('3');
    // year=99999 is the caller's error (answered 500 by contract): counted as such, not as a server fault.
    expect(await page.locator('[data-testid="usage-caller-errors"]').textContent()).toBe(String(errors));
    expect(await page.locator('[data-testid="usage-server-errors"]').textContent()).toBe('0');
    await page.locator('[data-testid="tabbar"]').getByText('会话').waitFor();
    await shot(page, 'home');
    // On a desktop-sized window the app keeps a phone's width.
    await page.setViewportSize({ width: 1280, height: 800 });
    await shot(page, 'home-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    const mine = await api('GET', `/api/sessions?userId=${operator.id}&clientKind=mobile`);
    expect(mine.json().data.total).toBe(1);
    await page.close();
  });

  it('installs its service worker, which caches the app shell and no API answer', async () => {
    const page = await newPage('allow');
    await signIn(page, operator.name);
    const cached = await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      const urls: string[] = [];
      for (const key of await caches.keys())
        for (const req of await (await caches.open(key)).keys()) urls.push(new URL(req.url).pathname);
      return urls;
    });
    expect(cached).toContain('/m/');
    expect(cached).toContain('/m/manifest.webmanifest');
    expect(cached.some((u) => u.startsWith('/m/assets/') && u.endsWith('.js'))).toBe(true);
    expect(cached.filter((u) => !u.startsWith('/m/'))).toEqual([]);
    await page.close();
  });

  it('a user without the EDIT bit sees no disable button; the operator disables a user', async () => {
    const target = `target-${suffix}`;
    const targetId = await createUser(api, target);

    const v = await newPage();
    await signIn(v, viewer.name);
    await v.locator('[data-testid="tabbar"]').getByText('用户').click();
    await v.fill('input[name="keyword"]', target);
    await v.press('input[name="keyword"]', 'Enter');
    await v.locator(`[data-user="${target}"]`).click();
    await v.locator('[data-testid="user-status"]', { hasText: '启用' }).waitFor();
    expect(await v.locator('[data-route="PATCH /api/users/{id}"]').count()).toBe(0);
    expect(await v.locator('[data-route="POST /api/users/{id}/reset-password"]').count()).toBe(0);
    expect(await v.locator('[data-route="POST /api/users/{id}/force-logout"]').count()).toBe(0);
    // No session write bits either: the viewer's session list has no end button.
    expect(await v.locator('[data-route="DELETE /api/sessions/{id}"]').count()).toBe(0);
    await shot(v, 'user-readonly');
    await v.close();

    // Without SEARCH on users there is no 用户 tab, and the page's URL leads home.
    const blind = await userWithGrants(suite.t.app, api, `blind-${suffix}`, { 'system:audit': SEARCH });
    const b = await newPage();
    await signIn(b, `blind-${suffix}`);
    expect(await b.locator('[data-testid="tabbar"] .van-tabbar-item').allTextContents()).toEqual(['首页', '我的']);
    await b.goto(`${suite.base}/m/users/${blind.id}`);
    await b.locator('[data-page="home"]').waitFor();
    await b.close();

    const page = await newPage();
    await signIn(page, operator.name);
    await page.locator('[data-testid="tabbar"]').getByText('用户').click();
    await page.locator('[data-page="users"] .van-cell').first().waitFor();
    await shot(page, 'users');
    await page.fill('input[name="keyword"]', target);
    await page.press('input[name="keyword"]', 'Enter');
    await page.locator(`[data-user="${target}"]`).click();
    await page.locator('[data-route="POST /api/users/{id}/reset-password"]').waitFor();
    await shot(page, 'user');
    await page.locator('[data-route="PATCH /api/users/{id}"]', { hasText: '停用' }).click();
    // The picture shows the dialog once its opening transition has run (no fixed wait).
    await page.locator('.van-dialog').waitFor();
    // A cancelled animation rejects its `finished` (AbortError): that one is over too.
    await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
    await shot(page, 'user-confirm');
    await confirmDialog(page);
    await page.locator('[data-testid="user-status"]', { hasText: '停用' }).waitFor();
    const after = await api('GET', `/api/users/${targetId}`);
    expect(after.json().data.status).toBe('disabled');
    await page.close();
  });

  it('解锁 and 重置两步验证 on a user’s page: a locked-out user signs in again, a lost authenticator is removed', async () => {
    const helper = `helpdesk-${suffix}`;
    await userWithGrants(suite.t.app, api, helper, { 'system:user': SEARCH | RESET | RESET_PASSWORD });
    const target = `lost-${suffix}`;
    const targetId = await createUser(api, target);
    await suite.t.db.kysely
      .updateTable('users')
      .set({ totp_secret: 'JBSWY3DPEHPK3PXP', totp_enabled_at: new Date().toISOString() })
      .where('id', '=', targetId)
      .execute();
    const attempt = (password: string) =>
      suite.t.app
        .inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: target, password },
          remoteAddress: '192.0.2.7',
        })
        .then((r) => r.statusCode);
    let status = 0;
    for (let i = 0; i < 20 && status !== 429; i++) status = await attempt('wrong-password-0');
    expect(status).toBe(429);

    const page = await newPage();
    await signIn(page, helper);
    await page.goto(`${suite.base}/m/users/${targetId}`);
    await page.locator('[data-testid="user-totp"]', { hasText: '已开启' }).waitFor();
    await page.screenshot({ path: path.join(ROOT, 'docs/screenshots/mobile-user-actions-phone.png') });
    await page.locator('[data-route="POST /api/users/{id}/unlock"]').click();
    await confirmDialog(page);
    await page.locator('.van-toast', { hasText: '已解锁' }).waitFor();
    await page.locator('[data-route="POST /api/users/{id}/reset-totp"]').click();
    await confirmDialog(page);
    await page.locator('[data-testid="user-totp"]', { hasText: '未开启' }).waitFor();
    // The login succeeds now, with the password alone (an mfaRequired answer would lack the access token).
    const res = await suite.t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: target, password: PASSWORD },
      remoteAddress: '192.0.2.7',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.accessToken).toEqual(expect.any(String));
    await page.close();
  });

  it('ends another user’s session from the online list; shows the login log', async () => {
    const other = `other-${suffix}`;
    await createUser(api, other);
    await login(suite.t.app, other, PASSWORD);
    const live = (await api('GET', `/api/sessions?keyword=${other}`)).json().data.items as Array<{ id: string }>;
    expect(live).toHaveLength(1);

    const page = await newPage();
    await signIn(page, operator.name);
    await page.locator('[data-testid="tabbar"]').getByText('会话').click();
    const row = page.locator(`[data-session="${live[0].id}"]`);
    await row.waitFor();
    await shot(page, 'sessions');
    await row.locator('[data-route="DELETE /api/sessions/{id}"]').click();
    await confirmDialog(page);
    await row.waitFor({ state: 'detached' });
    expect((await api('GET', `/api/sessions?keyword=${other}`)).json().data.total).toBe(0);

    await page.locator('.van-tab', { hasText: '登录日志' }).click();
    await page.locator('[data-testid="login-log-row"]').first().waitFor();
    await shot(page, 'login-log');
    await page.close();
  });

  it('quick-adds an item to a content library from its schema', async () => {
    const page = await newPage();
    await signIn(page, operator.name);
    await page.locator('[data-testid="quick-add-entry"]').click();
    await page.locator('[data-library="hitokoto"]').click();
    await page.locator('[name="content"]').waitFor();
    const content = `移动端快速添加 ${suffix}`;
    // The category is offered by name (the schema's x-names), not typed as a letter.
    await page.locator('.van-radio', { hasText: '动画' }).click();
    await page.fill('[name="content"]', content);
    // A real source: the content lint refuses placeholders such as 测试 or TODO as a source.
    await page.fill('[name="from"]', '移动端快速添加');
    await page.fill('[name="creator"]', 'e2e');
    await page.fill('[name="commit_from"]', 'mobile');
    await shot(page, 'quick-add');
    await page.click('[data-testid="quick-add-save"]');
    await page.locator('.van-toast', { hasText: '已添加' }).waitFor();
    const found = await api('GET', `/api/admin/content/hitokoto?keyword=${encodeURIComponent(content)}`);
    expect(found.json().data.total).toBe(1);
    await page.close();
  });

  it('ends its other sessions from 我的, then shows the forced-sign-out reason at once when forced out', async () => {
    const page = await newPage();
    // The page holds its event stream open (its headers arrive at once); the operator acts elsewhere.
    const streaming = page.waitForResponse((r) => r.url().endsWith('/api/auth/events'), { timeout: 30_000 });
    await signIn(page, operator.name);
    await streaming;
    await page.locator('[data-testid="tabbar"]').getByText('我的').click();
    await page.locator('[data-testid="end-own-session"]').first().waitFor();
    await shot(page, 'me');
    // The operator's other sign-ins (earlier tests, an API login) end from here; this one stays.
    await login(suite.t.app, operator.name, PASSWORD);
    await page.reload();
    await page.locator('[data-testid="end-others"]:not([disabled])').click();
    await confirmDialog(page);
    await page.locator('.section-title', { hasText: '我的会话（1）' }).waitFor();
    expect((await api('GET', `/api/sessions?userId=${operator.id}`)).json().data.total).toBe(1);
    const out = await api('POST', `/api/users/${operator.id}/force-logout`);
    expect(out.json().data.ended).toBe(1);
    await page.waitForURL(/\/m\/login/);
    await page.locator('[data-testid="signed-out-reason"]', { hasText: '你已被管理员强制下线' }).waitFor();
    await shot(page, 'login-forced');
    await page.close();
  });
});
