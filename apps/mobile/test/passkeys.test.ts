/**
 * Passkeys in the phone app at 390×844 (touch), in Debian's headless Chromium with a virtual authenticator (a phone's
 * own: platform, user verification): 我的 › 通行密钥 adds one, sign out, 「使用通行密钥登录」 signs in with it alone,
 * 我的会话 says so, and removing it (from its sheet, the passkey proving it is you once the sign-in is older than the
 * proof window) leaves the list empty.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasChromium } from '../../../test/chromium.js';
import {
  expectNoSidewaysScroll,
  settled,
  useBrowserSuite,
  virtualAuthenticator,
} from '../../../packages/server/test/browser-suite.js';
import { PASSWORD, adminCall, createRole, createUser } from '../../../packages/server/test/admin-fixtures.js';
import { ageSignIns } from '../../../packages/server/test/auth-fixtures.js';
import { ROOT, VIEWPORTS, contextAt } from './browser.js';

const SHOTS = path.join(ROOT, 'docs/screenshots');
const phone = VIEWPORTS[0];

describe.skipIf(!hasChromium)('passkeys in the phone app', { timeout: 240_000 }, () => {
  const suite = useBrowserSuite({ app: 'mobile', shots: SHOTS });
  const host = () => suite.base.replace('127.0.0.1', 'localhost');

  it('at 390×844: add a passkey from 我的, sign in with it alone, remove it', async () => {
    const admin = await adminCall(suite.t.app);
    const username = `mpk${Date.now() % 100_000}`;
    const userId = await createUser(admin, username, [
      await createRole(admin, `r_${username}`, { 'system:session': 1 }),
    ]);
    const page = await suite.open(contextAt(phone));
    await virtualAuthenticator(page);

    await page.goto(`${host()}/m/login`);
    await page.fill('input[name="username"]', username);
    await page.fill('input[name="password"]', PASSWORD);
    await page.click('[data-testid="login-submit"]');
    await page.locator('[data-page="home"]').waitFor();
    await page.goto(`${host()}/m/me`);
    await page.click('[data-testid="passkeys-link"]');
    await page.locator('[data-page="passkeys"]').waitFor();
    await page.click('[data-testid="passkey-add"]');
    const item = page.locator('[data-testid="passkey-item"]');
    await item.first().waitFor();
    expect(await item.count()).toBe(1);
    expect(await item.locator('.van-cell__label').textContent()).toMatch(
      /^本设备 · 添加于 \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/,
    );
    expect(await item.locator('.van-cell__value').textContent()).toBe('从未使用');
    await expectNoSidewaysScroll(page);
    await suite.shot(page, 'mobile-passkeys-phone');

    // Signed out (the server ends this session), the passkey alone signs in.
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${host()}/m/login`);
    await page.locator('[data-testid="passkey-login"]', { hasText: '使用通行密钥登录' }).waitFor();
    await suite.shot(page, 'mobile-passkey-login-phone');
    await page.click('[data-testid="passkey-login"]');
    await page.locator('[data-page="home"]').waitFor();
    // 我的会话 says how this session was opened.
    await page.goto(`${host()}/m/me`);
    const current = page.locator('[data-session]', { has: page.locator('.van-tag', { hasText: '当前设备' }) });
    await expect
      .poll(() => current.locator('[data-testid="session-method"]').textContent())
      .toMatch(/^\s*通行密钥\s*$/);
    // The first session, by password (still signed in: only this browser's storage was cleared), says nothing of it.
    expect(await page.locator('[data-session]').count()).toBe(2);
    expect(await page.locator('[data-testid="session-method"]').count()).toBe(1);

    await page.goto(`${host()}/m/me/passkeys`);
    await item.first().waitFor();
    await expect
      .poll(() => item.locator('.van-cell__value').textContent())
      .toMatch(/^最近使用 \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    await item.first().click();
    await page.locator('[data-testid="passkey-sheet"]').waitFor();
    await suite.shot(page, 'mobile-passkey-sheet-phone');
    // The sign-in is now older than the proof window: removing asks who it is, and the passkey itself answers.
    await ageSignIns(suite.t.db, userId);
    await page.click('[data-testid="passkey-remove"]');
    const withPasskey = page.locator('[data-testid="reauth-passkey"]', { hasText: '使用通行密钥验证' });
    await withPasskey.waitFor();
    await settled(page);
    await suite.shot(page, 'mobile-reauth-passkey-phone');
    await withPasskey.click();
    await expect.poll(() => item.count()).toBe(0);
  });
});
