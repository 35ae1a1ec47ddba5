/**
 * Clicks lost to layout shift (issue 51), at 1440×900 in Debian's headless Chromium against a real server: a field's
 * error line keeps its place while the field is corrected, so clicking 保存 with the caret still in that field (the
 * blur validates it and removes the error) lands on the button that was under the pointer when it went down.
 */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestInstance, type TestInstance } from '../../../packages/server/test/helpers.js';
import { adminCall, createUser, PASSWORD } from '../../../packages/server/test/admin-fixtures.js';
import { ensureBuilt, hasChromium, launchChromium, openPage, signInAdmin, VIEWPORTS } from './browser.js';

const SHOTS = process.env.TIANJI_SHOTS;

describe.skipIf(!hasChromium)('form errors do not move the buttons', { timeout: 90_000 }, () => {
  let t: TestInstance;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    ensureBuilt();
    t = await getTestInstance('sqlite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('fixing the field in error and clicking 保存 at once saves (the caret still in the field)', async () => {
    const username = `shift-${Math.random().toString(36).slice(2, 8)}`;
    await createUser(await adminCall(t.app), username);
    const page = await openPage(browser, VIEWPORTS[0]);
    await signInAdmin(page, base, username, PASSWORD);
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
    if (SHOTS) {
      fs.mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: `${SHOTS}/admin-form-error-desktop.png` });
    }

    // Where the button is before the blur: the pointer goes down there, the blur validates, the pointer comes up there.
    const box = (await save.boundingBox())!;
    const changed = page.waitForResponse((r) => r.url().endsWith('/api/auth/password'));
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    expect((await changed).ok()).toBe(true);
    await dialog.waitFor({ state: 'hidden' });
    await page.context().close();
  });
});
