/**
 * `tianji login --web` end to end against a browser approval (issue 53): the real CLI (bundled from its sources, its own
 * process) prints the short link and the code; a signed-in operator opens the link in Debian's headless Chromium, which
 * leads to the desktop app's 批准设备登录 at 1440×900 (or the phone app's at 390×844), sees the program, address and
 * place, approves, and the CLI is signed in as that operator. A refusal in the browser ends the CLI with the server's
 * Chinese message.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from '../../../test/chromium.js';
import { expectNoSidewaysScroll, useBrowserSuite } from '../../../packages/server/test/browser-suite.js';
import { PASSWORD, adminCall, createRole, createUser } from '../../../packages/server/test/admin-fixtures.js';
import { bundleCli, startCli } from '../../../packages/cli/test/cli-harness.js';
import { ROOT } from './browser.js';

const SHOTS = path.join(ROOT, 'docs/screenshots');
const CODE_LINE = /并输入代码：([A-Z]{4}-[A-Z]{4})（10 分钟内有效）/;
const LINK_LINE = /或直接打开：(\S+)/;

describe.skipIf(!hasChromium)('device sign-in approved in the browser', { timeout: 240_000 }, () => {
  const suite = useBrowserSuite({ app: 'admin', shots: SHOTS });
  let bundle = '';
  let dir = '';
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tianji-device-'));
    bundle = await bundleCli(dir);
  });
  const home = (name: string) => path.join(dir, name);

  async function operator(prefix: string) {
    const admin = await adminCall(suite.t.app);
    const username = `${prefix}${Date.now() % 100_000}`;
    await createUser(admin, username, [await createRole(admin, `r_${username}`, { 'system:session': 1 })]);
    return username;
  }
  async function signIn(page: Page, app: 'admin' | 'm', username: string, next: string) {
    await page.goto(next);
    await page.waitForURL(new RegExp(`/${app}/login`));
    await page.fill('input[name="username"]', username);
    await page.fill('input[name="password"]', PASSWORD);
    await page.click('[data-testid="login-submit"]');
  }

  it('at 1440×900: the CLI’s link leads to 批准设备登录; approving signs the CLI in as the operator', async () => {
    const username = await operator('dev');
    const cli = startCli(bundle, ['login', '--web', '--server', suite.base], { home: home('approve') });
    const [, userCode] = await cli.waitFor(CODE_LINE);
    const [, link] = await cli.waitFor(LINK_LINE);
    expect(link).toBe(`${suite.base}/device?code=${userCode}`);

    const page = await suite.open({ viewport: { width: 1440, height: 900 } });
    // Not signed in: the link goes through the sign-in and comes back with the code.
    await signIn(page, 'admin', username, link);
    const request = page.locator('[data-testid="device-request"]');
    await request.waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/device');
    expect(await page.inputValue('input[name="user-code"]')).toBe(userCode);
    const text = (await request.textContent()) ?? '';
    expect(text).toContain('tianji 命令行');
    expect(text).toContain('127.0.0.1');
    expect(text).toContain('本机');
    expect(text).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    await expectNoSidewaysScroll(page);
    await suite.shot(page, 'admin-device-approval-1440x900');
    await page.click('[data-testid="device-approve"]');
    await page.locator('[data-testid="device-decided"]', { hasText: '已批准' }).waitFor();

    const done = await cli.done;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain(username);
  });

  it('at 390×844 on the phone app: refusing ends the CLI with the server’s Chinese message', async () => {
    const username = await operator('mdev');
    const cli = startCli(bundle, ['login', '--web', '--server', suite.base], { home: home('deny') });
    const [, userCode] = await cli.waitFor(CODE_LINE);
    // A phone's browser says so in its user agent (the short link reads it; Playwright's isMobile does not set it).
    const page = await suite.open({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      serviceWorkers: 'block',
      userAgent:
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36',
    });
    await page.goto(`${suite.base}/m/login`);
    await page.fill('input[name="username"]', username);
    await page.fill('input[name="password"]', PASSWORD);
    await page.click('[data-testid="login-submit"]');
    await page.locator('[data-page="home"]').waitFor();
    // The short link picks the phone app for a phone.
    await page.goto(`${suite.base}/device`);
    await page.waitForURL(/\/m\/device/);
    await page.fill('input[name="user-code"]', userCode.toLowerCase().replace('-', ' '));
    await page.click('[data-testid="device-lookup"]');
    await page.locator('[data-testid="device-request"]').waitFor();
    expect(await page.inputValue('input[name="user-code"]')).toBe(userCode);
    await expectNoSidewaysScroll(page);
    await suite.shot(page, 'mobile-device-approval-phone');
    await page.click('[data-testid="device-deny"]');
    await page.locator('[data-testid="device-decided"]', { hasText: '已拒绝' }).waitFor();

    const done = await cli.done;
    expect(done.code).toBe(4);
    expect(done.stderr).toContain('拒绝');
  });
});
