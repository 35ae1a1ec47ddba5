/**
 * Turning on two-step sign-in from a sign-in older than the server's ten minutes, in the desktop admin app at
 * 1440×900 in Debian's headless Chromium against a real server: the server answers 403 REAUTH_REQUIRED, the card asks
 * for the current password in a dialog (cancel changes nothing, a wrong password is refused under the field), and
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

describe.skipIf(!hasChromium)('a fresh proof of identity in the admin app', { timeout: 90_000 }, () => {
  const suite = useBrowserSuite({ app: 'admin', shots: SHOTS });

  it('an old sign-in is asked for the current password, then the QR code appears and enabling works', async () => {
    const username = `areauth${Date.now() % 100_000}`;
    const userId = await insertUser(suite.t.db, username);
    const page = await suite.open({ viewport: { width: 1440, height: 900 } });
    const setups = postStatuses(page, '/api/auth/totp/setup');
    const enables = postStatuses(page, '/api/auth/totp/enable');
    await page.goto(`${suite.base}/admin/login`);
    await page.fill('input[name="username"]', username);
    await page.fill('input[name="password"]', USER_PASSWORD);
    await page.click('[data-testid="login-submit"]');
    await page.locator('[data-testid="user-menu"]').waitFor();
    await ageSignIns(suite.t.db, userId);
    await page.goto(`${suite.base}/admin/profile`);

    const dialog = page.locator('[data-dialog="two-factor-password"]');
    await page.click('[data-testid="totp-start"]');
    await dialog.waitFor();
    expect((await dialog.locator('.el-dialog__title').textContent())?.trim()).toBe('验证身份');
    expect((await dialog.locator('.prompt').textContent())?.trim()).toBe(
      '为了保护你的账号，请再次输入当前密码以继续设置两步验证。',
    );
    // Asked in place: no 无权限 toast for a refusal the dialog answers.
    expect(await page.locator('.el-message').count()).toBe(0);
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(1440);
    await expectNoSidewaysScroll(page);
    await suite.shot(page, 'admin-reauth-1440x900');

    // Cancel leaves everything as it was.
    await page.click('[data-testid="totp-password-cancel"]');
    await dialog.waitFor({ state: 'hidden' });
    await page.locator('[data-testid="two-factor-state"]', { hasText: '未开启' }).waitFor();
    expect(await page.locator('[data-testid="totp-qr"]').count()).toBe(0);

    await page.click('[data-testid="totp-start"]');
    await dialog.waitFor();
    await page.fill('input[name="current-password"]', 'not-my-password');
    await page.click('[data-testid="totp-password-confirm"]');
    await dialog.locator('.el-form-item__error', { hasText: '当前密码无效：密码不正确' }).waitFor();
    await suite.shot(page, 'admin-reauth-wrong-1440x900');
    await page.fill('input[name="current-password"]', USER_PASSWORD);
    await page.click('[data-testid="totp-password-confirm"]');
    // The step that was refused goes on by itself.
    await page.locator('[data-testid="totp-qr"]').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect(setups).toEqual([403, 403, 200]);

    // The proof ages while the code is typed: confirming asks once more, then enables.
    const secret = (await page.locator('[data-testid="totp-secret"]').textContent())!.trim();
    await ageSignIns(suite.t.db, userId);
    await page.fill('input[name="totp-code"]', totpCode(secret, Date.now()));
    await page.click('[data-testid="totp-enable"]');
    await dialog.waitFor();
    await page.fill('input[name="current-password"]', USER_PASSWORD);
    await page.click('[data-testid="totp-password-confirm"]');
    await page.locator('[data-testid="recovery-codes"] li').first().waitFor();
    await page.locator('[data-testid="two-factor-state"]', { hasText: '已开启' }).waitFor();
    expect(enables).toEqual([403, 200]);
    expect(await page.locator('.el-message', { hasText: '无权限' }).count()).toBe(0);
    await page.context().close();
  });
});
