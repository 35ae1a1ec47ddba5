/**
 * The desktop web driver: the admin app at /admin in Chromium (playwright-core, 1366×860), through the selectors the
 * e2e tests use (`.side-menu [data-menu]`, `[data-page] [data-action]`, `[data-testid]`, `.signed-out-reason`).
 * Concurrent actions are tabs of one browser context (one localStorage, Web Locks and BroadcastChannel).
 */
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { launchChromium } from '../../../../test/chromium.js';
import { virtualAuthenticator } from '../../../server/test/browser-suite.js';
import type { ClientDriver, Outcome } from '../driver.js';
import type { World } from '../world.js';
import { MENUS } from '../../../server/src/catalogue/index.js';

const USERS = MENUS.users.code;
const ROLES = MENUS.roles.code;

/** The menus the scenarios open: their page and the list request the page makes. */
const PAGES: Record<string, { page: string; list: string; path: string }> = {
  [USERS]: { page: 'users', list: '/api/users?', path: `/admin${MENUS.users.path}` },
  [ROLES]: { page: 'roles', list: '/api/roles?', path: `/admin${MENUS.roles.path}` },
};

let browser: Promise<Browser> | undefined;

/** The one Chromium the browser drivers of a test file share (launched on first use). */
export const sharedBrowser = (): Promise<Browser> => (browser ??= launchChromium());

/** Closes the browser the drivers of this file shared. */
export async function closeWebBrowser(): Promise<void> {
  const b = await browser;
  browser = undefined;
  await b?.close();
}

export interface WebDriverOptions {
  viewport: { width: number; height: number };
}

/**
 * The last /api/auth/me answer a page received, as text. The web apps show no mask and the phone app no role or menu
 * page: the nearest surface is the answer they render from.
 */
export function lastMeAnswer(page: Page): () => string {
  let body = '';
  page.on('response', (r) => {
    if (new URL(r.url()).pathname === '/api/auth/me' && r.ok())
      void r.text().then(
        (t) => (body = t),
        () => undefined,
      ); // the page may close first
  });
  return () => body;
}

/** The user's own mask in a /me answer, as exact digits: the first "permissions" (roles carry none; menus come after). */
export const maskIn = (meBody: string): string =>
  /^\{"data":\{[\s\S]*?"permissions":(\d+)/.exec(meBody)?.[1] ?? meBody.slice(0, 200);

/**
 * How long shownReason waits for the event stream's notice before making the request that learns the reason. The
 * server pushes the notice the moment it ends a session, so it shows within a few frames; where nothing is pushed
 * (the refresh token was used by someone else) the wait is pure loss. Either way the reason shown is the server's.
 */
export const EVENT_NOTICE_GRACE_MS = 1000;

/** Lets a page apply what it just received (the reactive update renders on the next frame). */
export const settle = (p: Page) =>
  p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null)))));

/** Where a web app asks for the current password before turning on TOTP: its container, field and confirm button. */
export interface ProofSurface {
  box: string;
  password: string;
  confirm: string;
}

/**
 * Turns on TOTP on the app's two-step page, already open: both apps draw web-core's useTwoFactor with the same test
 * ids (totp-start, totp-qr, totp-secret, totp-code, totp-enable, recovery-codes). Each step that the server refuses
 * for an old sign-in opens `proof` (the desktop dialog, the phone sheet): the password goes there and the step goes on
 * by itself. Says whether the app asked and the recovery codes it shows.
 */
/**
 * The sign-in's security notice as the page shows it (a dialog of class `security-notice` in both apps), when the
 * sign-in's answer carried one: its text, after which it is dismissed with 知道了 as its reader would. Null when the
 * answer carried none.
 */
export async function readSecurityNotice(page: Page, answer: Response | null): Promise<string | null> {
  const body = answer?.ok() ? ((await answer.json()) as { data?: { securityNotice?: string } }) : undefined;
  if (!body?.data?.securityNotice) return null;
  const dialog = page.locator('.security-notice').first();
  await dialog.waitFor();
  const text = ((await dialog.textContent()) ?? '').replace(/\s+/g, ' ').trim();
  await dialog.getByRole('button', { name: '知道了' }).click();
  await dialog.waitFor({ state: 'hidden' });
  return text;
}

export async function enrolTotpOnPage(
  page: Page,
  proof: ProofSurface,
  password: string,
  authenticator: (secret: string) => string,
): Promise<{ askedForPassword: boolean; recoveryCodes: string[] }> {
  let askedForPassword = false;
  const asking = page.locator(`${proof.box}:visible`);
  /** Clicks `button`, gives the password if the app asks for it, and waits for what the step shows: `next`. */
  const step = async (button: string, next: string) => {
    await page.click(button);
    await page.locator(`${next}:visible, ${proof.box}:visible`).first().waitFor();
    if (await asking.isVisible()) {
      askedForPassword = true;
      await asking.locator(proof.password).fill(password);
      await asking.locator(proof.confirm).click();
      await asking.waitFor({ state: 'hidden' });
    }
    await page.locator(next).first().waitFor();
  };
  await step('[data-testid="totp-start"]', '[data-testid="totp-qr"]');
  const secret = ((await page.locator('[data-testid="totp-secret"]').textContent()) ?? '').trim();
  await page.locator('input[name="totp-code"]').fill(authenticator(secret));
  await step('[data-testid="totp-enable"]', '[data-testid="recovery-codes"] li');
  const recoveryCodes = await page.locator('[data-testid="recovery-codes"] li').allTextContents();
  return { askedForPassword, recoveryCodes: recoveryCodes.map((c) => c.trim()) };
}

/** Chromium's virtual authenticator (DevTools WebAuthn) on `page`, once: a platform one that verifies the user. */
const withAuthenticatorOnce = new WeakSet<Page>();
export async function withAuthenticator(page: Page): Promise<void> {
  if (withAuthenticatorOnce.has(page)) return;
  withAuthenticatorOnce.add(page);
  await virtualAuthenticator(page);
}

/**
 * Every toast (ElMessage) the page shows, kept in `window.__toasts` in order: a toast lives 3 s, which on a loaded
 * machine can pass before the driver looks (seen on 2026-12-02 under load ~10).
 */
export function recordToasts(): void {
  const seen: string[] = [];
  (window as unknown as { __toasts: string[] }).__toasts = seen;
  new MutationObserver(() => {
    for (const el of document.querySelectorAll('.el-message')) {
      const text = el.textContent?.trim();
      if (text && !seen.includes(text)) seen.push(text);
    }
  }).observe(document, { childList: true, subtree: true });
}

export function webDriver(opts: WebDriverOptions = { viewport: { width: 1366, height: 860 } }) {
  return async (world: World): Promise<ClientDriver> => {
    const context: BrowserContext = await (await sharedBrowser()).newContext({
      viewport: opts.viewport,
      locale: 'zh-CN',
    });
    context.setDefaultTimeout(15_000);
    context.on('weberror', (e) => console.error(`[page error] ${e.error().message}`));
    await context.addInitScript(recordToasts);
    const page = await context.newPage();
    const base = world.baseUrl;
    const meAnswer = lastMeAnswer(page);
    const onLogin = (p: Page) => new URL(p.url()).pathname.startsWith('/admin/login');

    async function openMenu(p: Page, code: string): Promise<boolean> {
      await p.bringToFront(); // a page in the background renders no frames
      const item = p.locator(`.side-menu [data-menu="${code}"]`);
      if ((await item.count()) === 0) return false;
      if (code.includes(':')) {
        const sub = p.locator(`.side-menu [data-menu="${code.split(':')[0]}"]`);
        if (!(await sub.evaluate((el) => el.classList.contains('is-opened'))))
          await sub.locator('.el-sub-menu__title').click();
      }
      await item.click();
      return true;
    }

    /** Opens a menu's page (through the home page, so the navigation reloads the menus) and waits for its list. */
    async function visit(p: Page, code: string): Promise<boolean> {
      await openMenu(p, 'home');
      if ((await p.locator(`.side-menu [data-menu="${code}"]`).count()) === 0) return false;
      const target = PAGES[code];
      if (!target) throw new Error(`the web driver has no page for ${code}`);
      const listed = p.waitForResponse((r) => r.url().includes(target.list));
      await openMenu(p, code);
      const res = await listed;
      if (res.ok()) await p.locator(`[data-page="${target.page}"] .el-table__row`).first().waitFor();
      await settle(p);
      return true;
    }

    const actionsOn = async (p: Page, code: string) => {
      const actions = p.locator(`[data-page="${PAGES[code].page}"] [data-action]`);
      // The toolbar renders with the list's first answer, which visit() and the callers that stay on the page have
      // waited for (and a frame more): what is there now is what the page offers, also when that is nothing.
      await p.locator(`[data-page="${PAGES[code].page}"]`).waitFor();
      return actionsList(actions);
    };
    const actionsList = (actions: ReturnType<Page['locator']>) =>
      actions
        .evaluateAll((els) => [...new Set(els.map((e) => e.getAttribute('data-action')!))])
        .then((names) => names.filter((n) => n !== 'RESET').sort());

    const reasonShown = () => page.locator('.signed-out-reason').first();
    const passwordForm = () => page.getByRole('dialog', { name: '修改密码' });

    let notice: string | null = null;

    return {
      kind: 'web',
      async signIn(username, password, totp) {
        notice = null;
        let answer: Response | null = null;
        await page.goto(`${base}/admin/`);
        await page.waitForURL(/\/admin\/login/);
        await page.fill('input[name="username"]', username);
        await page.fill('input[name="password"]', password);
        const me = page.waitForResponse((r) => r.url().endsWith('/api/auth/me')).catch(() => null);
        await page.click('[data-testid="login-submit"]');
        if (totp) {
          const form = page.locator('[data-testid="totp-form"]');
          // Typed into the code field, which sends itself at the sixth digit (no button press).
          const answered = page.waitForResponse((r) => r.url().endsWith('/api/auth/login/totp'));
          await form.locator('input[name="totp"]').fill(totp());
          const res = await answered;
          if (!res.ok()) {
            const shown = form.locator('.el-form-item__error').first();
            await shown.waitFor();
            throw new Error(`the code was refused: ${((await shown.textContent()) ?? '').trim()}`);
          }
          answer = res;
        }
        await page.waitForURL((u) => !u.pathname.startsWith('/admin/login'));
        await page.locator('.side-menu').waitFor();
        await (await me)?.finished();
        notice = await readSecurityNotice(page, answer);
      },
      securityNotice: async () => notice,
      async mustChangePassword() {
        await settle(page);
        const form = passwordForm();
        // Told by /api/auth/me: the app must now show the profile page with the dialog and its notice.
        if (/"mustChangePassword":true/.test(meAnswer())) {
          await page.waitForURL(/\/admin\/profile/);
          await form.waitFor();
          // The toast lives 3 s and came with the sign-in's redirect: read it from what the page has shown.
          await page.waitForFunction(
            (text) => (window as unknown as { __toasts?: string[] }).__toasts?.some((t) => t.includes(text)),
            '首次登录请先修改密码',
          );
        }
        return form.isVisible();
      },
      async changeOwnPassword(oldPassword, newPassword) {
        const form = passwordForm(); // the scenarios change it where the app asked for it: the dialog is open
        await form.waitFor();
        await form.locator('input[name="old-password"]').fill(oldPassword);
        await form.locator('input[name="new-password"]').fill(newPassword);
        await form.locator('input[name="confirm-password"]').fill(newPassword);
        const me = page.waitForResponse((r) => r.url().endsWith('/api/auth/me'));
        await form.locator('[data-testid="save-password"]').click();
        await page.locator('.el-message', { hasText: '密码已修改' }).first().waitFor();
        await (await me).finished();
        await form.waitFor({ state: 'hidden' });
      },
      async identity() {
        await openMenu(page, 'home');
        await page.locator('.welcome').waitFor();
        const roles = await page.locator('.page-card .el-tag').allTextContents();
        const shownName = ((await page.locator('[data-testid="user-menu"]').textContent()) ?? '').trim();
        return { shownName, roles: roles.map((r) => r.trim()), mask: maskIn(meAnswer()) };
      },
      async visibleActions(code) {
        await page.bringToFront();
        if (new URL(page.url()).pathname === PAGES[code]?.path) {
          await settle(page);
          return actionsOn(page, code);
        }
        if (!(await visit(page, code))) return null;
        return actionsOn(page, code);
      },
      async refreshMenus() {
        const me = page.waitForResponse((r) => r.url().endsWith('/api/auth/me'));
        await openMenu(page, 'home');
        await (await me).finished();
        // The router moves on only after that answer: wait until the home page shows, or a later step would still
        // see the page it left.
        await page.waitForURL((u) => u.pathname === '/admin/');
        await page.locator('.welcome').waitFor();
      },
      async doAction(_route, targetUsername): Promise<Outcome> {
        if (await passwordForm().isVisible()) {
          // The password must be changed first: opening the users page (its address) leads back to the dialog.
          await page.goto(`${base}${PAGES[USERS].path}`);
          await page.waitForURL(/\/admin\/profile/);
          const notice = page.locator('.el-message', { hasText: '修改密码' }).first();
          await notice.waitFor();
          await passwordForm().waitFor();
          return { kind: 'forbidden', message: ((await notice.textContent()) ?? '').trim() };
        }
        if (new URL(page.url()).pathname !== PAGES[USERS].path) await visit(page, USERS);
        await page
          .locator('[data-page="users"] .el-table__row', { hasText: targetUsername })
          .locator('[data-action="EDIT"]')
          .click();
        const form = page.getByRole('dialog', { name: '编辑用户' });
        await form.locator('input[name="nickname"]').fill('改过的昵称');
        const answered = page.waitForResponse((r) => r.request().method() === 'PATCH');
        const reloaded = page.waitForResponse((r) => r.url().endsWith('/api/auth/me')).catch(() => null);
        await form.locator('[data-testid="save-user"]').click();
        const res: Response = await answered;
        if (res.ok()) {
          await form.waitFor({ state: 'hidden' });
          return { kind: 'ok' };
        }
        if (res.status() === 403) {
          // The app reloads the menus after a 403: wait for that answer before anyone looks at the buttons.
          const message = page.locator('.el-message', { hasText: '无权限' });
          await message.waitFor();
          await (await reloaded)?.finished();
          const text = ((await message.textContent()) ?? '').trim();
          await form.locator('.el-dialog__headerbtn').click();
          await form.waitFor({ state: 'hidden' });
          return { kind: 'forbidden', message: text };
        }
        await reasonShown().waitFor();
        return { kind: 'signed-out', message: ((await reasonShown().textContent()) ?? '').trim() };
      },
      async prepareConcurrent(n) {
        for (let i = 1; i < n; i++) {
          const tab = await context.newPage();
          await tab.goto(`${base}/admin/`); // resumes the session from localStorage
          await tab.locator('.side-menu').waitFor();
        }
        // Every tab now holds the token the last one refreshed (handed over on the BroadcastChannel).
        for (const tab of context.pages()) await openMenu(tab, 'home');
      },
      async concurrentActions(n) {
        const tabs = context.pages().slice(0, n);
        const codes = tabs.map((_, i) => (i % 2 ? ROLES : USERS));
        // Click all at once: Playwright's clicks on two pages would run one after the other.
        await Promise.all(
          tabs.map((tab, i) =>
            tab.evaluate(
              (m) => (document.querySelector(`.side-menu [data-menu="${m}"]`) as HTMLElement).click(),
              codes[i],
            ),
          ),
        );
        return Promise.all(
          tabs.map(async (tab, i): Promise<Outcome> => {
            await tab.locator(`[data-page="${PAGES[codes[i]].page}"] .el-table__row`).first().waitFor();
            return onLogin(tab) ? { kind: 'signed-out', message: tab.url() } : { kind: 'ok' };
          }),
        );
      },
      async storedRefreshToken() {
        return (await page.evaluate(() => localStorage.getItem('tianji.refreshToken')))!;
      },
      async logout() {
        await page.locator('[data-testid="user-menu"]').click();
        await page.locator('[data-testid="logout"]').click();
        await page.waitForURL(/\/admin\/login/);
      },
      async enrolTotp(password, authenticator) {
        // 个人资料 from the user menu; its two-step card asks for the password in the card's password dialog.
        await page.locator('[data-testid="user-menu"]').click();
        await page.locator('[data-testid="open-profile"]').click();
        await page.locator('[data-page="profile"] [data-testid="totp-start"]').waitFor();
        return enrolTotpOnPage(
          page,
          {
            box: '[data-dialog="two-factor-password"]',
            password: 'input[name="current-password"]',
            confirm: '[data-testid="totp-password-confirm"]',
          },
          password,
          authenticator,
        );
      },
      async addPasskey(password) {
        await withAuthenticator(page);
        await page.goto(`${base}/admin/profile#passkeys`);
        const card = page.locator('[data-testid="passkeys"]');
        await card.locator('.el-table').waitFor();
        await page.click('[data-testid="passkey-add"]');
        await page.locator('[data-dialog="passkey-name"] input[name="passkey-name"]').fill('行为测试');
        await page.click('[data-testid="passkey-name-save"]');
        const asked = page.locator('[data-dialog="passkey-password"]:visible');
        const done = card.locator('.el-table__row');
        await Promise.race([asked.waitFor(), done.first().waitFor()]);
        if (await asked.isVisible()) {
          await asked.locator('input[name="current-password"]').fill(password);
          await asked.locator('[data-testid="passkey-password-confirm"]').click();
        }
        await done.first().waitFor();
      },
      async signInWithPasskey() {
        await page.goto(`${base}/admin/login`);
        await page.click('[data-testid="passkey-login"]');
        await page.waitForURL((u) => !u.pathname.startsWith('/admin/login'));
        await page.locator('.side-menu').waitFor();
      },
      // A browser signs in by itself; it is the approver of a device sign-in (scenario device-sign-in: does not apply).
      async signInApprovedElsewhere() {
        throw new Error('a web app does not sign in through another browser');
      },
      async signedIn() {
        const stored = await page.evaluate(() => localStorage.getItem('tianji.refreshToken'));
        return !onLogin(page) && stored !== null;
      },
      async shownReason() {
        // The event stream usually brings the notice at once; otherwise the next request (a navigation) learns it.
        try {
          await reasonShown().waitFor({ timeout: EVENT_NOTICE_GRACE_MS });
        } catch {
          // A navigation reloads the menus, which needs the session: to another page than the current one.
          const home = /^\/admin\/?$/.test(new URL(page.url()).pathname);
          if (!onLogin(page)) await openMenu(page, home ? USERS : 'home').catch(() => undefined);
          await reasonShown().waitFor();
        }
        const message = ((await reasonShown().textContent()) ?? '').trim();
        await page.waitForURL(/\/admin\/login/);
        return { message };
      },
      close: () => context.close(),
    };
  };
}
