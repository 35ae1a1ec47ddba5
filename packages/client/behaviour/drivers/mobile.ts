/**
 * The mobile web driver: the phone app at /m/ in Chromium at 390×844 (touch), through the selectors its e2e test
 * uses (`[data-page]`, `[data-testid]`, the tab bar, `.van-notify`, `[data-action]` on a user's page). Concurrent
 * actions are tabs of one browser context (one localStorage, Web Locks and BroadcastChannel).
 * Where the phone app has no page (roles, menus, the mask) the driver reads the /api/auth/me answer it renders from.
 */
import type { BrowserContext, Locator, Page, Response } from 'playwright-core';
import type { MenuNode } from '../../src/index.js';
import { pointsIn } from '../../src/index.js';
import { findMenu, type ClientDriver, type Outcome } from '../driver.js';
import type { World } from '../world.js';
import {
  EVENT_NOTICE_GRACE_MS,
  enrolTotpOnPage,
  lastMeAnswer,
  maskIn,
  readSecurityNotice,
  settle,
  sharedBrowser,
  withAuthenticator,
} from './web.js';
import { MENUS } from '../../../server/src/catalogue/index.js';

const TOKEN_KEY = 'tianji.m.refreshToken';

export function mobileDriver() {
  return async (world: World): Promise<ClientDriver> => {
    const context: BrowserContext = await (await sharedBrowser()).newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      locale: 'zh-CN',
      serviceWorkers: 'block',
    });
    context.setDefaultTimeout(15_000);
    context.on('weberror', (e) => console.error(`[page error] ${e.error().message}`));
    const page = await context.newPage();
    const base = world.baseUrl;
    const meAnswer = lastMeAnswer(page);
    let signedInAs = '';
    let notice: string | null = null;
    const onLogin = (p: Page) => new URL(p.url()).pathname.startsWith('/m/login');
    const tab = (p: Page, label: string) => p.locator('[data-testid="tabbar"] .van-tabbar-item', { hasText: label });
    const loadedMenus = (): MenuNode[] => (JSON.parse(meAnswer()) as { data: { menus: MenuNode[] } }).data.menus;

    /**
     * Taps `target` and waits for the /api/auth/me answer every navigation reloads, then for the page `pageName`;
     * with `tapOnly`, only taps (for a navigation that ends the session on its way: no answer to /me comes then).
     */
    async function navigate(p: Page, target: Locator, pageName: string, tapOnly: boolean): Promise<boolean> {
      const me = tapOnly ? null : p.waitForResponse((r) => r.url().endsWith('/api/auth/me'));
      await target.click();
      if (!me) return true;
      await (await me).finished();
      await p.locator(`[data-page="${pageName}"]`).waitFor();
      await settle(p);
      return true;
    }
    /** Taps a tab and waits for its page (`tapOnly` as navigate). */
    async function openTab(p: Page, label: string, pageName: string, tapOnly = false): Promise<boolean> {
      await p.bringToFront(); // a page in the background renders no frames
      const item = tab(p, label);
      if ((await item.count()) === 0) return false;
      return navigate(p, item, pageName, tapOnly);
    }
    /** A navigation away from the current page: 返回 from a user's page, else another tab (`tapOnly` as navigate). */
    async function leaveTo(p: Page, tapOnly = false): Promise<boolean> {
      if (await p.locator('[data-page="user"]').count())
        return navigate(p, p.locator('[data-page="user"] .van-nav-bar__left'), 'users', tapOnly);
      if (await p.locator('[data-page="home"]').count()) return openTab(p, '我的', 'me', tapOnly);
      return openTab(p, '首页', 'home', tapOnly);
    }

    /**
     * The users list, then one user's page: the target's, or the first listed other than the signed-in user and
     * admin (whose rows carry a deniedReason that disables the buttons) when there is one.
     */
    async function openUser(username?: string): Promise<boolean> {
      if (await page.locator('[data-page="user"]').count()) await leaveTo(page);
      else {
        if (await page.locator('[data-page="users"]').count()) await leaveTo(page);
        if (!(await openTab(page, '用户', 'users'))) return false;
      }
      const others = `[data-user]:not([data-user="admin"]):not([data-user="${signedInAs}"])`;
      await page.locator('[data-user]').first().waitFor();
      const pick = username
        ? `[data-user="${username}"]`
        : (await page.locator(others).count())
          ? others
          : '[data-user]';
      const cell = page.locator(pick).first();
      await cell.click();
      await page.locator('[data-page="user"] [data-testid="user-status"]').waitFor();
      await settle(page);
      return true;
    }
    const actionsShown = () =>
      page
        .locator('[data-page="user"] [data-action]')
        .evaluateAll((els) => [...new Set(els.map((e) => e.getAttribute('data-action')!))]);
    const reasonShown = () => page.locator('[data-testid="signed-out-reason"]');
    const passwordDialog = () => page.locator('.van-dialog', { hasText: '修改密码' });

    return {
      kind: 'mobile',
      async signIn(username, password, totp) {
        signedInAs = username;
        notice = null;
        let answer: Response | null = null;
        await page.goto(`${base}/m/`);
        await page.waitForURL(/\/m\/login/);
        await page.fill('input[name="username"]', username);
        await page.fill('input[name="password"]', password);
        const me = page.waitForResponse((r) => r.url().endsWith('/api/auth/me')).catch(() => null);
        await page.click('[data-testid="login-submit"]');
        if (totp) {
          await page.locator('[data-testid="totp-step"]').waitFor();
          // Typed into the code field, which sends itself at the sixth digit (no button press).
          const answered = page.waitForResponse((r) => r.url().endsWith('/api/auth/login/totp'));
          await page.locator('[data-testid="totp-code"] input').fill(totp());
          const res = await answered;
          if (!res.ok()) {
            const shown = page.locator('[data-testid="totp-code"] .van-field__error-message').first();
            await shown.waitFor();
            throw new Error(`the code was refused: ${((await shown.textContent()) ?? '').trim()}`);
          }
          answer = res;
        }
        // Home, or 我的 when the password must be changed first.
        await page.locator('[data-page="home"], [data-page="me"]').first().waitFor();
        await (await me)?.finished();
        notice = await readSecurityNotice(page, answer);
      },
      securityNotice: async () => notice,
      async mustChangePassword() {
        await settle(page);
        // Told by /api/auth/me: the app must now show 我的 with 修改密码 open.
        if (/"mustChangePassword":true/.test(meAnswer())) {
          await page.locator('[data-page="me"]').waitFor();
          await passwordDialog().waitFor();
        }
        return passwordDialog().isVisible();
      },
      async changeOwnPassword(oldPassword, newPassword) {
        const dialog = passwordDialog(); // the scenarios change it where the app asked for it: the dialog is open
        await dialog.waitFor();
        await dialog.locator('input[name="old-password"]').fill(oldPassword);
        await dialog.locator('input[name="new-password"]').fill(newPassword);
        await dialog.locator('input[name="new-password-again"]').fill(newPassword);
        const me = page.waitForResponse((r) => r.url().endsWith('/api/auth/me'));
        await dialog.locator('.van-dialog__confirm').click();
        await page.locator('.van-toast', { hasText: '密码已修改' }).first().waitFor();
        await (await me).finished();
        await dialog.waitFor({ state: 'hidden' });
      },
      async identity() {
        // Tapping the tab already shown navigates nowhere: from 我的 (after a password change) go home first.
        if (await page.locator('[data-page="me"]').count()) await openTab(page, '首页', 'home');
        await openTab(page, '我的', 'me');
        const value = (title: string) =>
          page
            .locator('[data-page="me"] .van-cell', { hasText: title })
            .first()
            .locator('.van-cell__value')
            .textContent()
            .then((t) => (t ?? '').trim());
        const shownName = await value('用户名');
        const roles = (await value('角色')).split('、');
        return { shownName, roles, mask: maskIn(meAnswer()) };
      },
      async visibleActions(code) {
        if (code === MENUS.users.code) {
          await page.bringToFront();
          // Still on a user's page (after an action): read what it shows now, as the user would.
          if (!(await page.locator('[data-page="user"]').count()) && !(await openUser())) {
            const node = findMenu(loadedMenus(), code);
            return node ? pointsIn(node.permissions) : null;
          }
          await settle(page);
          return ['SEARCH', ...(await actionsShown())].sort();
        }
        // No page for this menu in the phone app: the menus it loaded on the last navigation.
        await leaveTo(page);
        const node = findMenu(loadedMenus(), code);
        return node ? pointsIn(node.permissions) : null;
      },
      async refreshMenus() {
        await leaveTo(page);
      },
      async doAction(_route, targetUsername): Promise<Outcome> {
        if (await passwordDialog().isVisible()) {
          // The password must be changed first: opening the users page (its address) leads back to 我的.
          await page.goto(`${base}/m/users`);
          const notice = page.locator('.van-notify', { hasText: '修改密码' });
          await notice.waitFor();
          await page.locator('[data-page="me"]').waitFor();
          await passwordDialog().waitFor();
          return { kind: 'forbidden', message: ((await notice.textContent()) ?? '').trim() };
        }
        // A user's page already open still shows what the menus allowed when it opened: act there (reaching the
        // target's page is a navigation, which reloads the menus first). Otherwise open the target's page.
        const open = page.locator('[data-page="user"] [data-action="EDIT"]');
        if (!(await open.count())) await openUser(targetUsername);
        const answered = page.waitForResponse((r) => r.request().method() === 'PATCH');
        const reloaded = page.waitForResponse((r) => r.url().endsWith('/api/auth/me')).catch(() => null);
        await page.locator('[data-page="user"] [data-action="EDIT"]').click();
        await page.locator('.van-dialog__confirm').click();
        const res = await answered;
        if (res.ok()) return { kind: 'ok' };
        if (res.status() === 403) {
          const notice = page.locator('.van-notify', { hasText: '无权限' });
          await notice.waitFor();
          await (await reloaded)?.finished();
          return { kind: 'forbidden', message: ((await notice.textContent()) ?? '').trim() };
        }
        await reasonShown().waitFor();
        return { kind: 'signed-out', message: ((await reasonShown().textContent()) ?? '').trim() };
      },
      async prepareConcurrent(n) {
        for (let i = 1; i < n; i++) {
          const p = await context.newPage();
          await p.goto(`${base}/m/`); // resumes the session from localStorage
          await p.locator('[data-page="home"]').waitFor();
        }
        for (const p of context.pages()) await p.bringToFront();
      },
      async concurrentActions(n) {
        const tabs = context.pages().slice(0, n);
        const targets = tabs.map((_, i) => (i % 2 ? { label: '我的', page: 'me' } : { label: '用户', page: 'users' }));
        // Tap all at once: Playwright's clicks on two pages would run one after the other.
        await Promise.all(
          tabs.map((p, i) =>
            p.evaluate((label) => {
              const items = [...document.querySelectorAll('[data-testid="tabbar"] .van-tabbar-item')];
              (items.find((e) => e.textContent?.includes(label)) as HTMLElement).click();
            }, targets[i].label),
          ),
        );
        return Promise.all(
          tabs.map(async (p, i): Promise<Outcome> => {
            const loaded = targets[i].page === 'users' ? '[data-page="users"] [data-user]' : '[data-page="me"]';
            await p.locator(loaded).first().waitFor();
            return onLogin(p) ? { kind: 'signed-out', message: p.url() } : { kind: 'ok' };
          }),
        );
      },
      async storedRefreshToken() {
        return (await page.evaluate((k) => localStorage.getItem(k), TOKEN_KEY))!;
      },
      async addPasskey(password) {
        await withAuthenticator(page);
        await page.goto(`${base}/m/me/passkeys`);
        await page.locator('[data-page="passkeys"]').waitFor();
        await page.click('[data-testid="passkey-add"]');
        const asked = page.locator('[data-testid="reauth-sheet"]:visible');
        const done = page.locator('[data-testid="passkey-item"]');
        await Promise.race([asked.waitFor(), done.first().waitFor()]);
        if (await asked.isVisible()) {
          await asked.locator('input[name="reauth-password"]').fill(password);
          await asked.locator('[data-testid="reauth-confirm"]').click();
        }
        await done.first().waitFor();
        // Back home, as a person leaves the page (the tab bar shows on the tab pages only).
        await page.goto(`${base}/m/`);
        await page.locator('[data-page="home"]').waitFor();
      },
      async signInWithPasskey() {
        await page.goto(`${base}/m/login`);
        await page.click('[data-testid="passkey-login"]');
        await page.locator('[data-page="home"]').waitFor();
      },
      async logout() {
        await openTab(page, '我的', 'me');
        await page.locator('[data-testid="sign-out"]').click();
        await page.locator('.van-dialog__confirm').click();
        await page.waitForURL(/\/m\/login/);
      },
      async enrolTotp(password, authenticator) {
        // 我的 → 两步验证; the page asks for the password in a bottom sheet.
        if (await page.locator('[data-page="me"]').count()) await openTab(page, '首页', 'home');
        await openTab(page, '我的', 'me');
        await navigate(page, page.locator('[data-testid="two-factor-link"]'), 'two-factor', false);
        return enrolTotpOnPage(
          page,
          {
            box: '[data-testid="reauth-sheet"]',
            password: 'input[name="reauth-password"]',
            confirm: '[data-testid="reauth-confirm"]',
          },
          password,
          authenticator,
        );
      },
      // A browser signs in by itself; it is the approver of a device sign-in (scenario device-sign-in: does not apply).
      async signInApprovedElsewhere() {
        throw new Error('a web app does not sign in through another browser');
      },
      async signedIn() {
        const stored = await page.evaluate((k) => localStorage.getItem(k), TOKEN_KEY);
        return !onLogin(page) && stored !== null;
      },
      async shownReason() {
        // The event stream usually brings the notice at once; otherwise the next tap (a navigation) learns it.
        try {
          await reasonShown().waitFor({ timeout: EVENT_NOTICE_GRACE_MS });
        } catch {
          // Only the tap: its refresh fails, so no /api/auth/me answer comes to wait for (that wait took 15 s).
          if (!onLogin(page)) await leaveTo(page, true).catch(() => undefined);
          await reasonShown().waitFor();
        }
        const message = ((await reasonShown().textContent()) ?? '').trim();
        await page.waitForURL(/\/m\/login/);
        return { message };
      },
      close: () => context.close(),
    };
  };
}
