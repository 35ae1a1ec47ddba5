import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const DIST = path.join(ROOT, 'apps/mobile/dist');
/** Debian's Chromium, which the browser tests drive. */
export const CHROMIUM = '/usr/bin/chromium';

/** Headless Chromium as every phone-app browser test launches it. */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });

/** Newest modification time of the files under the given paths. */
function newest(paths: string[]): number {
  let t = 0;
  for (const p of paths) {
    if (!fs.statSync(p).isDirectory()) t = Math.max(t, fs.statSync(p).mtimeMs);
    else
      for (const e of fs.readdirSync(p, { recursive: true, withFileTypes: true }))
        if (e.isFile()) t = Math.max(t, fs.statSync(path.join(e.parentPath, e.name)).mtimeMs);
  }
  return t;
}

/** Builds apps/mobile unless dist is newer than every source it is built from. */
export function ensureMobileBuilt() {
  const index = path.join(DIST, 'index.html');
  const sources = ['apps/mobile/src', 'apps/mobile/scripts', 'apps/mobile/index.html', 'apps/mobile/vite.config.ts'];
  const shared = ['packages/web-core/src', 'packages/client/src'];
  const stale =
    !fs.existsSync(index) ||
    newest([...sources, ...shared].map((s) => path.join(ROOT, s))) > fs.statSync(index).mtimeMs;
  // NODE_ENV is 'test' inside vitest: the build must not inherit it (Vue would ship its dev build).
  if (stale)
    execFileSync('npm', ['run', 'build', '-w', '@tianji/mobile'], {
      cwd: ROOT,
      stdio: 'pipe',
      env: { ...process.env, NODE_ENV: 'production' },
    });
}

/** The two sizes the phone app's operator tests run at: a phone (touch) first, then a desktop window. */
export const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844, isMobile: true },
  { name: 'desktop', width: 1440, height: 900, isMobile: false },
] as const;
export type Viewport = (typeof VIEWPORTS)[number];

/** A new page in its own context at the viewport (touch on a phone), in Chinese, no service worker, waits of 15 s. */
export async function openPage(browser: Browser, vp: Viewport, headers?: Record<string, string>): Promise<Page> {
  const c = await browser.newContext({
    extraHTTPHeaders: headers,
    viewport: { width: vp.width, height: vp.height },
    isMobile: vp.isMobile,
    hasTouch: vp.isMobile,
    locale: 'zh-CN',
    serviceWorkers: 'block',
  });
  c.on('weberror', (e) => console.error(`[page error] ${e.error().message}`));
  c.setDefaultTimeout(15_000);
  return c.newPage();
}

/** Signs in through the phone app's sign-in page at `base` and waits for the home page. */
export async function signInMobile(page: Page, base: string, username: string, password: string) {
  await page.goto(`${base}/m/`);
  await page.waitForURL(/\/m\/login/);
  await page.fill('input[name="username"]', username);
  await page.fill('input[name="password"]', password);
  await page.click('[data-testid="login-submit"]');
  await page.locator('[data-page="home"]').waitFor();
}
