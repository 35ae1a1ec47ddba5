/**
 * Passkeys in the desktop admin app at 1440×900, in Debian's headless Chromium with a virtual authenticator (the
 * DevTools WebAuthn domain: a platform authenticator with user verification, as a laptop's fingerprint reader):
 * add one in 个人资料 › 通行密钥 (also at 390×844), sign out, sign in with the passkey alone (我的登录设备 says
 * 通行密钥); a role that requires two-step sign-in lets the passkey session in and sends a password session to the
 * TOTP set-up; remove it, the passkey itself proving it is you once the sign-in is older than the proof window; and
 * the site opened by an IP address says to use a host name.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
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
import { ROOT } from './browser.js';

const SHOTS = path.join(ROOT, 'docs/screenshots');

describe.skipIf(!hasChromium)('passkeys in the admin app', { timeout: 240_000 }, () => {
  const suite = useBrowserSuite({ app: 'admin', shots: SHOTS });
  /** Passkeys need a host name: the same server, by `localhost`. */
  const host = () => suite.base.replace('127.0.0.1', 'localhost');

  async function signInWithPassword(page: Page, username: string) {
    await page.goto(`${host()}/admin/login`);
    await page.fill('input[name="username"]', username);
    await page.fill('input[name="password"]', PASSWORD);
    await page.click('[data-testid="login-submit"]');
  }
  async function signOut(page: Page) {
    await page.locator('[data-testid="user-menu"]').click();
    await page.locator('[data-testid="logout"]').click();
    await page.waitForURL(/\/admin\/login/);
  }

  it('at 1440×900: add a passkey, sign in with it alone, satisfy 要求两步验证 with it, remove it', async () => {
    const admin = await adminCall(suite.t.app);
    const username = `apk${Date.now() % 100_000}`;
    const role = await createRole(admin, `r_${username}`, { 'system:session': 1 });
    const userId = await createUser(admin, username, [role]);
    const page = await suite.open({ viewport: { width: 1440, height: 900 } });
    await virtualAuthenticator(page);

    await signInWithPassword(page, username);
    await page.locator('[data-testid="user-menu"]').waitFor();
    await page.goto(`${host()}/admin/profile#passkeys`);
    const card = page.locator('[data-testid="passkeys"]');
    await card.locator('.el-table__empty-text', { hasText: '还没有通行密钥' }).waitFor();
    await page.click('[data-testid="passkey-add"]');
    await page.fill('[data-dialog="passkey-name"] input[name="passkey-name"]', '测试电脑');
    await page.click('[data-testid="passkey-name-save"]');
    await page.locator('.el-message--success', { hasText: '已添加通行密钥「测试电脑」' }).waitFor();
    const row = card.locator('.el-table__row');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.locator('[data-col="name"]').textContent()).toBe('测试电脑');
    expect(await row.locator('[data-col="kind"]').textContent()).toBe('本设备');
    expect(await row.locator('[data-col="last-used"]').textContent()).toBe('从未使用');
    await card.scrollIntoViewIfNeeded();
    await expectNoSidewaysScroll(page);
    await suite.shot(page, 'admin-passkeys-1440x900');

    // Signed out, the passkey alone signs in: no username, no password, no code.
    await signOut(page);
    await page.locator('[data-testid="passkey-login"]', { hasText: '使用通行密钥登录' }).waitFor();
    await suite.shot(page, 'admin-passkey-login-1440x900');
    await page.click('[data-testid="passkey-login"]');
    await page.locator('[data-testid="user-menu"]').waitFor();
    await page.goto(`${host()}/admin/profile#passkeys`);
    await expect
      .poll(() => row.locator('[data-col="last-used"]').textContent())
      .toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    // 我的登录设备 says how each session was opened: this one by passkey.
    const current = page.locator('[data-testid="own-sessions"] .el-table__row', { has: page.locator('.current') });
    await expect.poll(() => current.locator('[data-col="sign-in-method"]').textContent()).toBe('通行密钥');

    // The role now requires two-step sign-in: a password session is sent to the TOTP set-up, a passkey session is not.
    expect((await admin('PATCH', `/api/roles/${role}`, { requireTotp: true })).statusCode).toBe(200);
    await signOut(page);
    await signInWithPassword(page, username);
    await page.locator('[data-testid="totp-required"]').waitFor();
    await signOut(page);
    await page.click('[data-testid="passkey-login"]');
    await page.locator('[data-testid="user-menu"]').waitFor();
    await page.goto(`${host()}/admin/`);
    await page.locator('[data-testid="user-menu"]').waitFor();
    expect(await page.locator('[data-testid="totp-required"]').count()).toBe(0);
    expect(await page.locator('.el-message', { hasText: '两步验证' }).count()).toBe(0);

    // Removed, once the sign-in is older than the proof window: the passkey itself proves it is still its owner.
    await ageSignIns(suite.t.db, userId);
    await page.goto(`${host()}/admin/profile#passkeys`);
    await row.first().waitFor();
    await row.locator('[data-action="REMOVE_PASSKEY"]').click();
    await page.click('[data-testid="passkey-remove-confirm"]');
    const proof = page.locator('[data-dialog="passkey-password"]');
    await proof.locator('[data-testid="passkey-passkey"]', { hasText: '使用通行密钥验证' }).waitFor();
    await settled(page);
    await suite.shot(page, 'admin-reauth-passkey-1440x900');
    await proof.locator('[data-testid="passkey-passkey"]').click();
    await page.locator('.el-message--success', { hasText: '已删除通行密钥' }).waitFor();
    await card.locator('.el-table__empty-text').waitFor();
    await signOut(page);
    await page.click('[data-testid="passkey-login"]');
    await page.locator('.el-message--error').waitFor();
    expect(await page.locator('[data-testid="user-menu"]').count()).toBe(0);
  });

  it('at 390×844: the 通行密钥 card fits a phone, and the sign-in page offers the passkey', async () => {
    const admin = await adminCall(suite.t.app);
    const username = `apq${Date.now() % 100_000}`;
    await createUser(admin, username, []);
    const page = await suite.open({ viewport: { width: 390, height: 844 } });
    await virtualAuthenticator(page);
    await signInWithPassword(page, username);
    await page.locator('[data-testid="user-menu"]').waitFor();
    await page.goto(`${host()}/admin/profile#passkeys`);
    const card = page.locator('[data-testid="passkeys"]');
    await page.click('[data-testid="passkey-add"]');
    await page.fill('[data-dialog="passkey-name"] input[name="passkey-name"]', '我的手机');
    await page.click('[data-testid="passkey-name-save"]');
    await page.locator('.el-message--success', { hasText: '已添加通行密钥「我的手机」' }).waitFor();
    await expect.poll(() => card.locator('.el-table__row [data-col="name"]').allTextContents()).toEqual(['我的手机']);
    await card.scrollIntoViewIfNeeded();
    await expectNoSidewaysScroll(page);
    await suite.shot(page, 'admin-passkeys-390x844');
    await signOut(page);
    await page.click('[data-testid="passkey-login"]');
    await page.locator('[data-testid="user-menu"]').waitFor();
  });

  it('opened by IP address, the passkey button says to use a host name', async () => {
    const page = await suite.open({ viewport: { width: 1440, height: 900 } });
    await virtualAuthenticator(page);
    await page.goto(`${suite.base}/admin/login`);
    await page.click('[data-testid="passkey-login"]');
    const message = page.locator('.el-message--error');
    await message.waitFor();
    expect(await message.textContent()).toContain('IP 地址');
  });
});
