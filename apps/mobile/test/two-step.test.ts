/**
 * Two-step sign-in in the phone app, at 390×844 and at 1440×900, in Debian's headless Chromium against a real server:
 * the code field takes a pasted 「123 456」 and submits itself once, a wrong code is refused under the field, a
 * recovery code signs in instead; 我的 → 两步验证 turns it on, shows the recovery codes (copied and downloaded: the
 * file's content is checked), replaces them, turns it off; the password meter says what the server then refuses.
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
  { name: 'phone', width: 390, height: 844, isMobile: true },
  { name: 'desktop', width: 1440, height: 900, isMobile: false },
] as const;

describe.skipIf(!hasChromium)('two-step sign-in in the phone app', { timeout: 90_000 }, () => {
  const suite = useBrowserSuite({
    app: 'mobile',
    env: { PASSWORD_MIN_LENGTH: '12' },
    shots: path.join(ROOT, 'docs/screenshots'),
  });
  const { shot } = suite;
  let n = 0;

  const open = (vp: (typeof VIEWPORTS)[number]) =>
    suite.open(
      {
        viewport: { width: vp.width, height: vp.height },
        isMobile: vp.isMobile,
        hasTouch: vp.isMobile,
        serviceWorkers: 'block',
        acceptDownloads: true,
      },
      ['clipboard-read', 'clipboard-write'],
    );

  /** A user with TOTP on, named for this test run. */
  const enrolled = () => enrolledUser(suite.t.app, suite.t.db, `m2fa${++n}${Date.now() % 10_000}`);

  /** A new user without two-step sign-in, signed in and on 我的. */
  async function freshUserOnMe(vp: (typeof VIEWPORTS)[number], prefix: string) {
    const username = `${prefix}${vp.name}${Date.now() % 10_000}`;
    await insertUser(suite.t.db, username);
    const page = await open(vp);
    await page.goto(`${suite.base}/m/login`);
    await page.fill('input[name="username"]', username);
    await page.fill('input[name="password"]', USER_PASSWORD);
    await page.click('[data-testid="login-submit"]');
    await page.locator('[data-page="home"]').waitFor();
    await page.locator('.van-tabbar-item', { hasText: '我的' }).click();
    return { page, username };
  }

  async function passwordStep(page: Page, username: string, password = USER_PASSWORD) {
    await page.goto(`${suite.base}/m/login`);
    await page.fill('input[name="username"]', username);
    await page.fill('input[name="password"]', password);
    await page.click('[data-testid="login-submit"]');
    await page.locator('[data-testid="totp-step"]').waitFor();
  }

  /** Screenshots of the security notice: looked at by a person, not kept in the repository. */
  const NOTICE_SHOTS = path.join(ROOT, 'test-results/security-notice');

  /** Pastes `text` into the focused field the way a person does: the clipboard, then Ctrl+V. */
  async function paste(page: Page, text: string) {
    await page.evaluate((s) => navigator.clipboard.writeText(s), text);
    await page.keyboard.press('ControlOrMeta+V');
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
        expect(await field.getAttribute('inputmode')).toBe('numeric');
        expect(await field.getAttribute('autocomplete')).toBe('one-time-code');
        // Focused on arrival: typing needs no tap first.
        expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
        await page.keyboard.type('000000');
        await page.locator('.van-field__error-message', { hasText: '两步验证码错误或已使用' }).waitFor();
        expect(await field.inputValue()).toBe('');
        await shot(page, `mobile-login-code-${vp.name}`);
        const code = totpCode(u.secret, Date.now());
        await field.focus();
        await paste(page, `${code.slice(0, 3)} ${code.slice(3)}`);
        // Enter right after the auto-submit: still one request.
        await page.keyboard.press('Enter');
        await page.locator('[data-page="home"]').waitFor();
        expect(sent).toEqual(['000000', code]);
        await page.context().close();
      });

      it('after wrong codes entered elsewhere, the sign-in shows the server’s notice once, leading to 我的会话', async () => {
        const u = await enrolled();
        await wrongSecondStepCodes(suite.t.app, u.username, 2);
        const page = await open(vp);
        await passwordStep(page, u.username);
        await page.locator('input[name="totp"]').fill(totpCode(u.secret, Date.now()));
        await page.locator('[data-page="home"]').waitFor();
        const notice = page.locator('.security-notice');
        await notice.waitFor();
        expect((await notice.locator('.van-dialog__header').textContent())?.trim()).toBe('安全提醒');
        expect((await notice.locator('.van-dialog__message').textContent())?.trim()).toMatch(
          /^自上次登录以来，你的账号有 2 次两步验证码输入错误。如果不是你本人输错，.*请立即修改密码。$/,
        );
        // Vant's dialog style is loaded with it (a dialog called as a function brings none by itself): a card over
        // the page, no wider than Vant's 320 px, not a bare block across it.
        expect(await notice.evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
        const box = (await notice.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.width).toBeLessThanOrEqual(Math.min(320, vp.width));
        fs.mkdirSync(NOTICE_SHOTS, { recursive: true });
        await page.screenshot({ path: path.join(NOTICE_SHOTS, `mobile-security-notice-${vp.name}.png`) });
        await notice.locator('.van-dialog__confirm', { hasText: '查看我的登录设备' }).click();
        await page.locator('[data-page="me"]').waitFor();
        await page.locator('[data-testid="end-own-session"]').first().waitFor();
        await notice.waitFor({ state: 'hidden' });
        await page.screenshot({ path: path.join(NOTICE_SHOTS, `mobile-security-notice-sessions-${vp.name}.png`) });
        // Once: moving on in the app does not bring it back.
        await page.locator('.van-tabbar-item', { hasText: '首页' }).click();
        await page.locator('[data-page="home"]').waitFor();
        expect(await page.locator('.security-notice').isVisible()).toBe(false);
        await page.context().close();
      });

      it('「使用恢复码」 signs in with a recovery code, typed in capitals without the dash, and tells the codes left', async () => {
        const u = await enrolled();
        const page = await open(vp);
        await passwordStep(page, u.username);
        await page.click('[data-testid="totp-mode"]');
        await page.locator('[data-testid="totp-hint"]', { hasText: '恢复码' }).waitFor();
        const field = page.locator('input[name="totp"]');
        expect(await field.getAttribute('inputmode')).toBe('text');
        await field.fill(u.recoveryCodes[0].replace('-', '').toUpperCase());
        expect(await field.inputValue()).toBe(u.recoveryCodes[0]);
        await page.click('[data-testid="totp-submit"]');
        await page.locator('[data-page="home"]').waitFor();
        await page.locator('.van-toast', { hasText: '已使用恢复码登录，还剩 9 个恢复码' }).waitFor();
        await page.context().close();
      });

      it('我的 → 两步验证: turn on, copy and download the recovery codes, replace them, turn off', async () => {
        const { page, username } = await freshUserOnMe(vp, 'm2fame');
        await page.locator('[data-testid="two-factor-link"]', { hasText: '未开启' }).click();
        await page.locator('[data-page="two-factor"]').waitFor();
        await page.click('[data-testid="totp-start"]');
        const secret = (await page.locator('[data-testid="totp-secret"]').textContent())!.trim();
        await page.locator('[data-testid="totp-qr"]').waitFor();
        expect(await page.locator('[data-testid="totp-sign-out-others"]').getAttribute('aria-checked')).toBe('true');
        await page.locator('input[name="totp-code"]').fill(totpCode(secret, Date.now()));
        await shot(page, `mobile-two-factor-setup-${vp.name}`);
        await page.click('[data-testid="totp-enable"]');
        const codes = page.locator('[data-testid="recovery-codes"] li');
        await codes.first().waitFor();
        const shown = (await codes.allTextContents()).map((s) => s.trim());
        expect(shown).toHaveLength(10);
        await page.locator('[data-testid="two-factor-state"]', { hasText: '已开启' }).waitFor();

        await page.click('[data-testid="recovery-copy"]');
        await page.locator('[data-testid="recovery-copy"]', { hasText: '已复制' }).waitFor();
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown.join('\n'));
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.click('[data-testid="recovery-download"]'),
        ]);
        const text = fs.readFileSync((await download.path())!, 'utf8');
        expectRecoveryCodesFile({ name: download.suggestedFilename(), text }, username, shown);
        await shot(page, `mobile-recovery-codes-${vp.name}`);
        await page.click('[data-testid="recovery-saved"]');

        // New recovery codes: a wrong password is said under the field; the right one replaces all ten.
        await page.click('[data-testid="totp-regenerate"]');
        await page.fill('input[name="current-password"]', 'not-my-password');
        await page.locator('.van-dialog__confirm').click();
        await page.locator('.van-field__error-message', { hasText: '当前密码无效：密码不正确' }).waitFor();
        await page.fill('input[name="current-password"]', USER_PASSWORD);
        await page.locator('.van-dialog__confirm').click();
        await codes.first().waitFor();
        const fresh = (await codes.allTextContents()).map((s) => s.trim());
        expect(fresh).toHaveLength(10);
        expect(fresh.filter((c) => shown.includes(c))).toEqual([]);
        await page.click('[data-testid="recovery-saved"]');

        await page.click('[data-testid="totp-disable"]');
        await page.fill('input[name="current-password"]', USER_PASSWORD);
        await page.locator('.van-dialog__confirm').click();
        await page.locator('[data-testid="two-factor-state"]', { hasText: '未开启' }).waitFor();
        await page.context().close();
      });

      it('the strength meter under 新密码 says what the server then refuses, and praises what it accepts', async () => {
        const { page } = await freshUserOnMe(vp, 'm2fapw');
        await page.locator('[data-testid="change-password"]').click();
        await page.fill('input[name="old-password"]', USER_PASSWORD);
        await page.fill('input[name="new-password"]', 'woaini1314520');
        const meter = page.locator('[data-testid="password-meter"]');
        await meter.locator('.level', { hasText: '弱' }).waitFor();
        const problem = ((await meter.locator('[data-testid="password-meter-problem"]').textContent()) ?? '').trim();
        expect(problem).toMatch(/^密码强度不足/);
        await shot(page, `mobile-password-meter-${vp.name}`);
        await page.fill('input[name="new-password-again"]', 'woaini1314520');
        await page.locator('.van-dialog__confirm').click();
        // The submit's refusal is the meter's reason, word for word.
        await page.locator('.van-field__error-message', { hasText: `新密码无效：${problem}` }).waitFor();
        await page.fill('input[name="new-password"]', 'mX7#vq9!Lw2$kT');
        await page.locator('[data-testid="password-meter"][data-level="strong"]').waitFor();
        expect(await meter.locator('.level').textContent()).toContain('强');
        expect(await meter.locator('[data-testid="password-meter-problem"]').count()).toBe(0);
        await page.context().close();
      });
    });
  }
});
