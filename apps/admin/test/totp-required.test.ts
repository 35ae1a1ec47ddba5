/**
 * A member of a role that requires two-step sign-in, who has not turned it on, signs in to the desktop app at
 * 1440×900 and at 390×844 (Debian's headless Chromium, a real server): the app lands on 个人中心 with the 两步验证
 * card first and its set-up started (the QR code shows), one sentence — the server's own — and no other warning; no
 * page fires a request the server refuses (no 403 at all); a page opened by its address brings the user back there.
 * Once enrolled and the recovery codes saved, the home page shows the day's numbers. Screenshots of the landing go to
 * /work/notes/shots (or TIANJI_SHOTS), not the repository.
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

describe.skipIf(!hasChromium)('a role that requires two-step sign-in, in the desktop app', { timeout: 120_000 }, () => {
  const suite = useBrowserSuite({
    app: 'admin',
    shots: process.env.TIANJI_SHOTS ?? path.resolve('/work/notes/shots'),
  });

  for (const vp of VIEWPORTS) {
    it(`at ${vp.width}×${vp.height}: lands on the set-up with the server's sentence; enrolled, the home works`, async () => {
      const username = `atotp_${vp.name}`;
      await totpRoleMember(await adminCall(suite.t.app), username);
      const page = await suite.open({ viewport: { width: vp.width, height: vp.height } });
      const refused = answeredWith(page, 403);

      await page.goto(`${suite.base}/admin/login`);
      await page.fill('input[name="username"]', username);
      await page.fill('input[name="password"]', PASSWORD);
      await page.click('[data-testid="login-submit"]');
      await page.waitForURL(/\/admin\/profile$/);
      const sentence = page.locator('[data-testid="totp-required"]');
      expect((await sentence.textContent())?.trim()).toBe(PENDING_MESSAGES.TOTP_SETUP_REQUIRED);
      // Started: the QR code and the code field are there without a click, above the rest of the page.
      await page.locator('[data-testid="totp-qr"]').waitFor();
      const card = (await page.locator('[data-slot="two-factor"]').boundingBox())!;
      expect(card.y + 200).toBeLessThan(vp.height);
      // The rest of the page has loaded (its own devices): nothing still loading, no warning anywhere.
      await page.locator('[data-testid="own-sessions"] .el-table__row').first().waitFor();
      expect(await page.locator('.el-message, .el-message-box, .el-notification').count()).toBe(0);
      const loading = page.locator('.el-skeleton, .el-loading-mask');
      await loading
        .first()
        .waitFor({ state: 'hidden' })
        .catch(() => undefined);
      expect(
        await loading.evaluateAll((els) =>
          els.filter((e) => (e as HTMLElement).offsetParent).map((e) => e.outerHTML.slice(0, 200)),
        ),
      ).toEqual([]);
      expect(refused).toEqual([]);
      await suite.shot(page, `admin-totp-required-${vp.name}`);

      // Another page by its address: back on the set-up, still nothing refused.
      await page.goto(`${suite.base}/admin/system/sessions`);
      await page.waitForURL(/\/admin\/profile$/);
      await page.locator('[data-testid="totp-qr"]').waitFor();
      expect(refused).toEqual([]);

      const secret = (await page.locator('[data-testid="totp-secret"]').textContent())!.trim();
      await page.fill('input[name="totp-code"]', totpCode(secret, Date.now()));
      await page.click('[data-testid="totp-enable"]');
      await page.locator('[data-testid="recovery-codes"]').waitFor();
      await page.click('[data-testid="recovery-saved"]');
      await page.waitForURL((u) => u.pathname === '/admin/');
      const sessions = page.locator('[data-number="sessions"] [data-testid="number-value"]');
      await expect.poll(async () => (await sessions.textContent())?.trim()).toMatch(/^\d+$/);
      expect(await page.locator('.el-message--warning, .el-message--error').count()).toBe(0);
      expect(refused).toEqual([]);
      await page.context().close();
    });
  }
});
