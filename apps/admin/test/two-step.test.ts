/**
 * Two-step sign-in in the desktop admin app, at 1440×900 and at 390×844, in Debian's headless Chromium against a real
 * server: the code step behaves as the phone's (pasted 「123 456」 submits itself once, a wrong code is refused under
 * the field, 「使用恢复码」), the profile's card copies and downloads the recovery codes (the file's content is
 * checked) and replaces them, and the change-password dialog's meter says what the server then refuses.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium } from '../../../test/chromium.js';
import { useBrowserSuite } from '../../../packages/server/test/browser-suite.js';
import {
  enrolledUser,
  expectRecoveryCodesFile,
  wrongSecondStepCodes,
} from '../../../packages/server/test/totp-fixtures.js';
import { USER_PASSWORD, insertUser } from '../../../packages/server/test/auth-fixtures.js';
import { totpCode } from '../../../packages/server/src/admin/auth/totp.js';
import { ROOT } from './browser.js';

const VIEWPORTS = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

describe.skipIf(!hasChromium)('two-step sign-in in the admin app', { timeout: 90_000 }, () => {
  const suite = useBrowserSuite({
    app: 'admin',
    env: { PASSWORD_MIN_LENGTH: '12' },
    shots: path.join(ROOT, 'docs/screenshots'),
  });
  const { shot } = suite;
  let n = 0;

  const open = (vp: (typeof VIEWPORTS)[number]) =>
    suite.open({ viewport: { width: vp.width, height: vp.height }, acceptDownloads: true }, [
      'clipboard-read',
      'clipboard-write',
    ]);

  /** A user with TOTP on, named for this test run. */
  const enrolled = () => enrolledUser(suite.t.app, suite.t.db, `a2fa${++n}${Date.now() % 10_000}`);

  async function passwordStep(page: Page, username: string) {
    await page.goto(`${suite.base}/admin/login`);
    await page.fill('input[name="username"]', username);
    await page.fill('input[name="password"]', USER_PASSWORD);
    await page.click('[data-testid="login-submit"]');
  }

  /** Screenshots of the security notice: looked at by a person, not kept in the repository. */
  const NOTICE_SHOTS = path.join(ROOT, 'test-results/security-notice');

  async function signIn(page: Page, username: string) {
    await passwordStep(page, username);
    await page.locator('[data-testid="user-menu"]').waitFor();
  }

  for (const vp of VIEWPORTS) {
    describe(`at ${vp.width}×${vp.height}`, () => {
      it('the code field refuses a wrong code under itself, then signs in once from a pasted 「123 456」', async () => {
        const u = await enrolled();
        const page = await open(vp);
        const sent: string[] = [];
        page.on('request', (r) => {
          if (r.url().endsWith('/api/auth/login/totp')) sent.push(JSON.parse(r.postData() ?? '{}').code);
        });
        await passwordStep(page, u.username);
        const field = page.locator('input[name="totp"]');
        await field.waitFor();
        expect(await field.getAttribute('inputmode')).toBe('numeric');
        expect(await field.getAttribute('autocomplete')).toBe('one-time-code');
        expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
        await page.keyboard.type('000000');
        await page.locator('.el-form-item__error', { hasText: '两步验证码错误或已使用' }).waitFor();
        expect(await field.inputValue()).toBe('');
        await shot(page, `admin-login-code-${vp.name}`);
        const code = totpCode(u.secret, Date.now());
        await field.focus();
        await page.evaluate((s) => navigator.clipboard.writeText(s), `${code.slice(0, 3)} ${code.slice(3)}`);
        await page.keyboard.press('ControlOrMeta+V');
        await page.keyboard.press('Enter');
        await page.locator('[data-testid="user-menu"]').waitFor();
        expect(sent).toEqual(['000000', code]);
        await page.context().close();
      });

      it('after wrong codes entered elsewhere, the sign-in shows the server’s notice once, leading to 我的登录设备', async () => {
        const u = await enrolled();
        await wrongSecondStepCodes(suite.t.app, u.username, 2);
        const page = await open(vp);
        await passwordStep(page, u.username);
        await page.locator('input[name="totp"]').fill(totpCode(u.secret, Date.now()));
        const notice = page.locator('.security-notice');
        await notice.waitFor();
        expect((await notice.locator('.el-message-box__title').textContent())?.trim()).toBe('安全提醒');
        expect((await notice.locator('.el-message-box__message').textContent())?.trim()).toMatch(
          /^自上次登录以来，你的账号有 2 次两步验证码输入错误。如果不是你本人输错，.*请立即修改密码。$/,
        );
        const box = (await notice.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(vp.width);
        fs.mkdirSync(NOTICE_SHOTS, { recursive: true });
        await page.screenshot({ path: path.join(NOTICE_SHOTS, `admin-security-notice-${vp.name}.png`) });
        await notice.getByRole('button', { name: '查看我的登录设备' }).click();
        await page.waitForURL(/\/admin\/profile#sessions$/);
        await page.locator('[data-testid="own-sessions"] .el-table__row').first().waitFor();
        await notice.waitFor({ state: 'hidden' });
        await page.screenshot({ path: path.join(NOTICE_SHOTS, `admin-security-notice-sessions-${vp.name}.png`) });
        // Once: moving on in the app does not bring it back.
        await page.goto(`${suite.base}/admin/`);
        await page.locator('[data-testid="user-menu"]').waitFor();
        expect(await page.locator('.security-notice').count()).toBe(0);
        await page.context().close();
      });

      it('「使用恢复码」 signs in with a recovery code, and says how many are left', async () => {
        const u = await enrolled();
        const page = await open(vp);
        await passwordStep(page, u.username);
        await page.click('[data-testid="totp-mode"]');
        const field = page.locator('input[name="totp"]');
        await page.locator('[data-testid="totp-hint"]', { hasText: '恢复码' }).waitFor();
        await field.fill(` ${u.recoveryCodes[1].toUpperCase()} `);
        expect(await field.inputValue()).toBe(u.recoveryCodes[1]);
        await page.click('[data-testid="totp-submit"]');
        await page.locator('[data-testid="user-menu"]').waitFor();
        await page.locator('.el-message', { hasText: '已使用恢复码登录，还剩 9 个恢复码' }).waitFor();
        await page.context().close();
      });

      it('the profile’s recovery codes are copied, downloaded as a dated file, and replaced after the password', async () => {
        const username = `a2faprof${vp.name}${Date.now() % 10_000}`;
        await insertUser(suite.t.db, username);
        const page = await open(vp);
        await signIn(page, username);
        await page.goto(`${suite.base}/admin/profile`);
        await page.click('[data-testid="totp-start"]');
        const secret = (await page.locator('[data-testid="totp-secret"]').textContent())!.trim();
        await page.fill('input[name="totp-code"]', totpCode(secret, Date.now()));
        await page.click('[data-testid="totp-enable"]');
        const codes = page.locator('[data-testid="recovery-codes"] li');
        await codes.first().waitFor();
        const shown = (await codes.allTextContents()).map((s) => s.trim());
        expect(shown).toHaveLength(10);

        await page.click('[data-testid="recovery-copy"]');
        await page.locator('[data-testid="recovery-copy"]', { hasText: '已复制' }).waitFor();
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown.join('\n'));
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.click('[data-testid="recovery-download"]'),
        ]);
        const text = fs.readFileSync((await download.path())!, 'utf8');
        expectRecoveryCodesFile({ name: download.suggestedFilename(), text }, username, shown);
        await shot(page, `admin-recovery-codes-${vp.name}`);
        await page.click('[data-testid="recovery-saved"]');

        await page.click('[data-testid="totp-regenerate"]');
        await page.fill('input[name="current-password"]', 'not-my-password');
        await page.click('[data-testid="totp-password-confirm"]');
        await page.locator('.el-form-item__error', { hasText: '当前密码无效：密码不正确' }).waitFor();
        await page.fill('input[name="current-password"]', USER_PASSWORD);
        await page.click('[data-testid="totp-password-confirm"]');
        await page.locator('[data-testid="recovery-codes"]').waitFor();
        await page.waitForFunction((old) => {
          const items = [...document.querySelectorAll('[data-testid="recovery-codes"] li')].map((li) =>
            li.textContent?.trim(),
          );
          return items.length === 10 && !items.some((c) => old.includes(c ?? ''));
        }, shown);
        await page.context().close();
      });

      it('the change-password meter says what the server then refuses, word for word', async () => {
        const username = `a2fapw${vp.name}${Date.now() % 10_000}`;
        await insertUser(suite.t.db, username);
        const page = await open(vp);
        await signIn(page, username);
        await page.locator('[data-testid="user-menu"]').click();
        await page.locator('[data-testid="open-password"]').click();
        await page.fill('input[name="old-password"]', USER_PASSWORD);
        await page.fill('input[name="new-password"]', 'woaini1314520');
        const meter = page.locator('[data-testid="password-meter"]');
        await meter.locator('.level', { hasText: '弱' }).waitFor();
        const problem = ((await meter.locator('[data-testid="password-meter-problem"]').textContent()) ?? '').trim();
        expect(problem).toMatch(/^密码强度不足/);
        await page.fill('input[name="confirm-password"]', 'woaini1314520');
        await shot(page, `admin-password-meter-${vp.name}`);
        await page.click('[data-testid="save-password"]');
        await page.locator('.el-form-item__error', { hasText: `新密码无效：${problem}` }).waitFor();
        await page.fill('input[name="new-password"]', 'mX7#vq9!Lw2$kT');
        await page.locator('[data-testid="password-meter"][data-level="strong"]').waitFor();
        expect(await meter.locator('[data-testid="password-meter-problem"]').count()).toBe(0);
        // The minimum is the server's (PASSWORD_MIN_LENGTH=12 here), not one of the page's own: a short password goes to
        // the server and comes back with the configured length, in the meter and under the field.
        const tooShort = '密码长度应至少为 12 个字符（当前 5 个）';
        await page.fill('input[name="new-password"]', 'aB3$x');
        await meter.locator('[data-testid="password-meter-problem"]', { hasText: tooShort }).waitFor();
        await page.fill('input[name="confirm-password"]', 'aB3$x');
        await page.click('[data-testid="save-password"]');
        await page.locator('.el-form-item__error', { hasText: `新密码无效：${tooShort}` }).waitFor();
        // One message per field: the meter does not repeat what the field's error now says.
        expect(await meter.locator('[data-testid="password-meter-problem"]').count()).toBe(0);
        await page.context().close();
      });
    });
  }
});
