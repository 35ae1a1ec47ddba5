import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

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
