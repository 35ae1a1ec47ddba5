/**
 * A delegated operator on 会话 in the phone app (issue 51), at 390×844 and 1440×900 in Debian's headless Chromium
 * against a real server: 下线此设备 on a super administrator's session is disabled before anything is confirmed, the
 * server's reason written under it (a phone has no hover); on the operator's own session it stays enabled.
 */
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasChromium } from '../../../test/chromium.js';
import { useBrowserSuite } from '../../../packages/server/test/browser-suite.js';
import { ADMIN, login } from '../../../packages/server/test/helpers.js';
import { adminCall, PASSWORD, userWithGrants } from '../../../packages/server/test/admin-fixtures.js';
import { VIEWPORTS, signInMobile } from './browser.js';

/** Screenshots for the closing note, outside the repository (TIANJI_SHOTS to choose where). */
const SHOTS = process.env.TIANJI_SHOTS ?? path.join(os.tmpdir(), 'tianji-shots');
const REASON = `用户「${ADMIN.username}」拥有你没有的权限（超级管理员的全部权限），你不能结束该用户的会话`;

describe.skipIf(!hasChromium)('sessions an operator may not end, in the phone app', { timeout: 90_000 }, () => {
  const suite = useBrowserSuite({ app: 'mobile', shots: SHOTS });

  for (const vp of VIEWPORTS) {
    it(`at ${vp.width}×${vp.height}: a super administrator's session offers 下线此设备 disabled, saying why`, async () => {
      const name = `delegate-${vp.width}`;
      await userWithGrants(suite.t.app, await adminCall(suite.t.app), name, {
        system: 0,
        'system:session': 1 | 8 | 16,
      });
      await login(suite.t.app); // a live session of the super administrator
      const page = await suite.open({
        viewport: { width: vp.width, height: vp.height },
        isMobile: vp.isMobile,
        hasTouch: vp.isMobile,
        serviceWorkers: 'block',
      });
      await signInMobile(page, suite.base, name, PASSWORD);
      await page.locator('[data-testid="tabbar"]').getByText('会话').click();
      const boss = page.locator('[data-session]', { hasText: `${ADMIN.username} · ` }).first();
      const own = page.locator('[data-session]', { hasText: `${name} · ` }).first();
      await boss.waitFor();
      const end = '[data-route="DELETE /api/sessions/{id}"]';
      expect(await boss.locator(end).isDisabled()).toBe(true);
      await boss.getByText(REASON).waitFor();
      expect(await own.locator(end).isDisabled()).toBe(false);
      // The reason wraps beside the session's own lines, which keep most of the row.
      const row = (await boss.boundingBox())!;
      const lines = (await boss.locator('.main').boundingBox())!;
      expect(lines.width).toBeGreaterThan(row.width * 0.4);
      expect((await boss.locator('.reason').boundingBox())!.x + 1).toBeGreaterThan(lines.x + lines.width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
        0,
      );
      await suite.shot(page, `mobile-sessions-denied-${vp.name}`);
      await page.context().close();
    });
  }
});
