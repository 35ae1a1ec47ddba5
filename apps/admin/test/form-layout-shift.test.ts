/**
 * Clicks lost to layout shift (issue 51), at 1440×900 and 390×844 in Debian's headless Chromium against a real server: a field's
 * error line keeps its place while the field is corrected, so clicking 保存 with the caret still in that field (the
 * blur validates it and removes the error) lands on the button that was under the pointer when it went down.
 */
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasChromium } from '../../../test/chromium.js';
import { useBrowserSuite } from '../../../packages/server/test/browser-suite.js';
import { adminCall, createUser, PASSWORD } from '../../../packages/server/test/admin-fixtures.js';
import { signInAdmin, VIEWPORTS } from './browser.js';

/** Screenshots for the closing note, outside the repository (TIANJI_SHOTS to choose where). */
const SHOTS = process.env.TIANJI_SHOTS ?? path.join(os.tmpdir(), 'tianji-shots');

describe.skipIf(!hasChromium)('form errors do not move the buttons', { timeout: 90_000 }, () => {
  const suite = useBrowserSuite({ app: 'admin', shots: SHOTS });

  for (const vp of VIEWPORTS)
    it(`at ${vp.width}×${vp.height}: fixing the field in error and clicking 保存 at once saves (the caret still in it)`, async () => {
      const username = `shift-${vp.name}`;
      await createUser(await adminCall(suite.t.app), username);
      const page = await suite.open({ viewport: { width: vp.width, height: vp.height } });
      await signInAdmin(page, suite.base, username, PASSWORD);
      await page.locator('[data-testid="user-menu"]').click();
      await page.locator('[data-testid="open-password"]').click();
      const dialog = page.locator('[data-dialog="change-password"]');
      const save = dialog.locator('[data-testid="save-password"]');
      await save.click();
      const oldItem = dialog.locator('.el-form-item', { has: page.locator('input[name="old-password"]') });
      await oldItem.locator('.el-form-item__error').waitFor();

      // Every other field valid; the caret ends in the one still showing its error.
      const next = 'Layout-shift-Passw0rd!';
      await dialog.locator('input[name="new-password"]').fill(next);
      await dialog.locator('input[name="confirm-password"]').fill(next);
      await dialog.locator('input[name="old-password"]').fill(PASSWORD);
      expect(await oldItem.locator('.el-form-item__error').count()).toBe(1);
      await suite.shot(page, `admin-form-error-${vp.name}`);

      // Where the button is before the blur: the pointer goes down there, the blur validates, the pointer comes up there.
      const box = (await save.boundingBox())!;
      const sent = page.waitForRequest((r) => r.url().endsWith('/api/auth/password'));
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      // The click landed when the browser sends the change; the answer itself waits for argon2 and the strength
      // check, which on a crowded machine take longer than the page's usual 15 s wait, so it gets no timer of its own.
      const answer = await (await sent).response();
      expect(answer?.ok()).toBe(true);
      await dialog.waitFor({ state: 'hidden' });
      await page.context().close();
    });
});
