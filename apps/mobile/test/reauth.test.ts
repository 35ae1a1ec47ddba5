/**
 * Turning on two-step sign-in from a sign-in older than the server's ten minutes, in the phone app at 390×844 in
 * Debian's headless Chromium against a real server: the server answers 403 REAUTH_REQUIRED, 我的 → 两步验证 asks for
 * the current password in a bottom sheet (cancel changes nothing, a wrong password is refused under the field), and
 * the right one lets the same step go on by itself: the QR code appears, and enabling works.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasChromium } from '../../../test/chromium.js';
import { expectNoSidewaysScroll, postStatuses, useBrowserSuite } from '../../../packages/server/test/browser-suite.js';
import { USER_PASSWORD, ageSignIns, insertUser } from '../../../packages/server/test/auth-fixtures.js';
import { totpCode } from '../../../packages/server/src/admin/auth/totp.js';
import { ROOT } from './browser.js';

/** Screenshots of the question: looked at by a person, not kept in the repository. */
const SHOTS = path.join(ROOT, 'test-results/reauth');

describe.skipIf(!hasChromium)('a fresh proof of identity in the phone app', { timeout: 90_000 }, () => {
  const suite = useBrowserSuite({ app: 'mobile', shots: SHOTS });

  it('an old sign-in is asked for the current password in a sheet, then the QR code appears and enabling works', async () => {
    const username = `mreauth${Date.now() % 100_000}`;
    const userId = await insertUser(suite.t.db, username);
    const page = await suite.open({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      serviceWorkers: 'block',
    });
    const setups = postStatuses(page, '/api/auth/totp/setup');
    const enables = postStatuses(page, '/api/auth/totp/enable');
    await page.goto(`${suite.base}/m/login`);
    await page.fill('input[name="username"]', username);
    await page.fill('input[name="password"]', USER_PASSWORD);
    await page.click('[data-testid="login-submit"]');
    await page.locator('[data-page="home"]').waitFor();
    await ageSignIns(suite.t.db, userId);
    await page.locator('.van-tabbar-item', { hasText: '我的' }).click();
    await page.locator('[data-testid="two-factor-link"]', { hasText: '未开启' }).click();
    await page.locator('[data-page="two-factor"]').waitFor();

    const sheet = page.locator('[data-testid="reauth-sheet"]');
    await page.click('[data-testid="totp-start"]');
    await sheet.waitFor();
    expect((await sheet.locator('.reauth-title').textContent())?.trim()).toBe('验证身份');
    expect((await sheet.locator('.text').textContent())?.trim()).toBe(
      '为了保护你的账号，请再次输入当前密码以继续设置两步验证。',
    );
    // Asked in place: no 无权限 notice for a refusal the sheet answers.
    expect(await page.locator('.van-notify:visible').count()).toBe(0);
    // The sheet opens from the bottom edge; let it settle before measuring.
    await page.waitForFunction(() => {
      const r = document.querySelector('[data-testid="reauth-sheet"]')!.getBoundingClientRect();
      return Math.abs(r.bottom - innerHeight) < 1;
    });
    const box = (await sheet.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(box.y).toBeGreaterThanOrEqual(0);
    await expectNoSidewaysScroll(page);
    await suite.shot(page, 'mobile-reauth-390x844');

    // Cancel leaves everything as it was.
    await page.click('[data-testid="reauth-cancel"]');
    await sheet.waitFor({ state: 'hidden' });
    await page.locator('[data-testid="two-factor-state"]', { hasText: '未开启' }).waitFor();
    expect(await page.locator('[data-testid="totp-qr"]').count()).toBe(0);

    await page.click('[data-testid="totp-start"]');
    await sheet.waitFor();
    await page.fill('input[name="reauth-password"]', 'not-my-password');
    await page.click('[data-testid="reauth-confirm"]');
    await sheet.locator('.van-field__error-message', { hasText: '当前密码无效：密码不正确' }).waitFor();
    await suite.shot(page, 'mobile-reauth-wrong-390x844');
    await page.fill('input[name="reauth-password"]', USER_PASSWORD);
    await page.click('[data-testid="reauth-confirm"]');
    // The step that was refused goes on by itself.
    await page.locator('[data-testid="totp-qr"]').waitFor();
    await sheet.waitFor({ state: 'hidden' });
    expect(setups).toEqual([403, 403, 200]);

    // The proof ages while the code is typed: confirming asks once more, then enables.
    const secret = (await page.locator('[data-testid="totp-secret"]').textContent())!.trim();
    await ageSignIns(suite.t.db, userId);
    await page.locator('input[name="totp-code"]').fill(totpCode(secret, Date.now()));
    await page.click('[data-testid="totp-enable"]');
    await sheet.waitFor();
    await page.fill('input[name="reauth-password"]', USER_PASSWORD);
    await page.click('[data-testid="reauth-confirm"]');
    await page.locator('[data-testid="recovery-codes"] li').first().waitFor();
    await page.locator('[data-testid="two-factor-state"]', { hasText: '已开启' }).waitFor();
    expect(enables).toEqual([403, 200]);
    expect(await page.locator('.van-notify:visible').count()).toBe(0);
    await page.context().close();
  });
});
