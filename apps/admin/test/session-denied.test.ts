/**
 * A delegated operator on 在线会话 (issue 51), at 1440×900 and 390×844 in Debian's headless Chromium against a real
 * server: 下线此设备 and 全部设备强制下线 on a super administrator's session are disabled before anything is confirmed,
 * with the server's reason on hover (as the users page does); on the operator's own row they stay enabled.
 */
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasChromium } from '../../../test/chromium.js';
import { useBrowserSuite } from '../../../packages/server/test/browser-suite.js';
import { ADMIN, login } from '../../../packages/server/test/helpers.js';
import { adminCall, PASSWORD, userWithGrants } from '../../../packages/server/test/admin-fixtures.js';
import { clickMenu, signInAdmin, VIEWPORTS } from './browser.js';

/** Screenshots for the closing note, outside the repository (TIANJI_SHOTS to choose where). */
const SHOTS = process.env.TIANJI_SHOTS ?? path.join(os.tmpdir(), 'tianji-shots');
const REASON = `用户「${ADMIN.username}」拥有你没有的权限（超级管理员的全部权限），你不能结束该用户的会话`;

describe.skipIf(!hasChromium)('sessions an operator may not end, in the admin app', { timeout: 90_000 }, () => {
  const suite = useBrowserSuite({ app: 'admin', shots: SHOTS });

  for (const vp of VIEWPORTS) {
    it(`at ${vp.width}×${vp.height}: a super administrator's session offers its actions disabled, saying why`, async () => {
      const name = `delegate-${vp.name}`;
      await userWithGrants(suite.t.app, await adminCall(suite.t.app), name, {
        system: 0,
        'system:session': 1 | 8 | 16,
      });
      await login(suite.t.app); // a live session of the super administrator
      const page = await suite.open({ viewport: { width: vp.width, height: vp.height } });
      await signInAdmin(page, suite.base, name, PASSWORD);
      await clickMenu(page, 'system', 'system:session');
      const rows = page.locator('[data-page="sessions"] .el-table__body-wrapper .el-table__row');
      const boss = rows.filter({ hasText: ADMIN.username }).first();
      const own = rows.filter({ hasText: name }).first();
      await boss.waitFor();
      for (const route of ['DELETE /api/sessions/{id}', 'POST /api/users/{id}/force-logout']) {
        expect(await boss.locator(`button[data-route="${route}"]`).isDisabled(), route).toBe(true);
        expect(await own.locator(`button[data-route="${route}"]`).isDisabled(), route).toBe(false);
      }
      // Not offered to the batch action either.
      expect(await boss.locator('.el-checkbox.is-disabled').count()).toBe(1);
      for (const route of ['DELETE /api/sessions/{id}', 'POST /api/users/{id}/force-logout']) {
        await boss.locator('[data-denied="true"]', { has: page.locator(`[data-route="${route}"]`) }).hover();
        await page.locator('.el-popper', { hasText: REASON }).waitFor();
        if (route.startsWith('DELETE')) await suite.shot(page, `admin-sessions-denied-${vp.name}`);
        await page.mouse.move(0, 0);
        await page.locator('.el-popper', { hasText: REASON }).waitFor({ state: 'hidden' });
      }
      await page.context().close();
    });
  }
});
