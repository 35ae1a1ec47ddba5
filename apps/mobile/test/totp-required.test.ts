/**
 * A member of a role that requires two-step sign-in, who has not turned it on, signs in to the phone app at 390×844
 * and at 1440×900 (Debian's headless Chromium, a real server): the app lands on 我的 › 两步验证 with its set-up started
 * (the QR code shows), one sentence — the server's own — and no other warning; no page fires a request the server
 * refuses (no 403 at all); a page opened by its address brings the user back there, and 返回 leads to 我的 (where
 * 退出登录 is). Once enrolled and the recovery codes saved, the home page shows the day's numbers. Screenshots of the
 * landing go to /work/notes/shots (or TIANJI_SHOTS), not the repository.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasChromium } from '../../../test/chromium.js';
import { answeredWith, useBrowserSuite } from '../../../packages/server/test/browser-suite.js';
import { adminCall, PASSWORD } from '../../../packages/server/test/admin-fixtures.js';
import { totpRoleMember } from '../../../packages/server/test/totp-fixtures.js';
import { PENDING_MESSAGES } from '../../../packages/server/src/errors.js';
import { totpCode } from '../../../packages/server/src/admin/auth/totp.js';
import { VIEWPORTS } from './browser.js';

describe.skipIf(!hasChromium)('a role that requires two-step sign-in, in the phone app', { timeout: 120_000 }, () => {
  const suite = useBrowserSuite({
    app: 'mobile',
    shots: process.env.TIANJI_SHOTS ?? path.resolve('/work/notes/shots'),
  });

  for (const vp of VIEWPORTS) {
    it(`at ${vp.width}×${vp.height}: lands on 两步验证 with the server's sentence; enrolled, the home works`, async () => {
      const username = `mtotp_${vp.name}`;
      await totpRoleMember(await adminCall(suite.t.app), username);
      const page = await suite.open({
        viewport: { width: vp.width, height: vp.height },
        isMobile: vp.isMobile,
        hasTouch: vp.isMobile,
        serviceWorkers: 'block',
      });
      const refused = answeredWith(page, 403);
      const warnings = page.locator('.van-notify:visible, .van-toast:visible, .van-dialog:visible');

      await page.goto(`${suite.base}/m/login`);
      await page.fill('input[name="username"]', username);
      await page.fill('input[name="password"]', PASSWORD);
      await page.click('[data-testid="login-submit"]');
      await page.waitForURL(/\/m\/me\/two-factor$/);
      const sentence = page.locator('[data-testid="totp-required"]');
      expect((await sentence.textContent())?.trim()).toBe(PENDING_MESSAGES.TOTP_SETUP_REQUIRED);
      // Started: the QR code and the code field are there without a tap.
      await page.locator('[data-testid="totp-qr"]').waitFor();
      // 我的 loaded nothing refused meanwhile; no warning anywhere.
      await page.locator('[data-testid="two-factor-state"]').waitFor();
      expect(await warnings.count()).toBe(0);
      expect(refused).toEqual([]);
      await suite.shot(page, `mobile-totp-required-${vp.name}`);

      // Another page by its address: back on the set-up, still nothing refused; 返回 leads to 我的.
      await page.goto(`${suite.base}/m/users`);
      await page.waitForURL(/\/m\/me\/two-factor$/);
      await page.locator('[data-testid="totp-qr"]').waitFor();
      await page.locator('.van-nav-bar__left').click();
      await page.waitForURL(/\/m\/me$/);
      await page.locator('[data-testid="sign-out"]').waitFor();
      expect(refused).toEqual([]);
      await page.locator('[data-testid="two-factor-link"]').click();
      await page.locator('[data-testid="totp-qr"]').waitFor();

      const secret = (await page.locator('[data-testid="totp-secret"]').textContent())!.trim();
      await page.fill('input[name="totp-code"]', totpCode(secret, Date.now()));
      await page.click('[data-testid="totp-enable"]');
      await page.locator('[data-testid="recovery-codes"]').waitFor();
      await page.click('[data-testid="recovery-saved"]');
      await page.waitForURL((u) => u.pathname === '/m/' || u.pathname === '/m');
      const sessions = page.locator('[data-testid="home-sessions"] .num-inline');
      await expect.poll(async () => (await sessions.textContent())?.trim()).toMatch(/^\d+$/);
      expect(refused).toEqual([]);
      await page.context().close();
    });
  }
});
