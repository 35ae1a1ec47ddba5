/**
 * What every browser test of the admin app needs: Debian's Chromium (skipped with a note when missing, a failure
 * under TIANJI_E2E=1), the built app in apps/admin/dist (rebuilt when a source is newer), and a headless launch.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const DIST = path.join(ROOT, 'apps/admin/dist');

export const hasChromium = fs.existsSync(CHROMIUM);
if (!hasChromium) {
  if (process.env.TIANJI_E2E === '1')
    throw new Error(`TIANJI_E2E=1 but ${CHROMIUM} is missing: apt-get install -y chromium`);
  console.warn(`[tianji e2e] ${CHROMIUM} not found: browser tests skipped (apt-get install -y chromium)`);
}

/** Newest modification time under the given folders (sources the build depends on). */
function newest(dirs: string[]): number {
  let t = 0;
  for (const d of dirs)
    for (const e of fs.readdirSync(d, { recursive: true, withFileTypes: true }))
      if (e.isFile()) t = Math.max(t, fs.statSync(path.join(e.parentPath, e.name)).mtimeMs);
  return t;
}

/** Builds the app unless dist is newer than every source it is built from. */
export function ensureBuilt() {
  const index = path.join(DIST, 'index.html');
  const sources = [
    path.join(ROOT, 'apps/admin/src'),
    path.join(ROOT, 'packages/client/src'),
    path.join(ROOT, 'packages/web-core/src'),
    path.join(ROOT, 'apps/admin/index.html'),
  ];
  const stale =
    !fs.existsSync(index) || newest(sources.filter((s) => fs.statSync(s).isDirectory())) > fs.statSync(index).mtimeMs;
  // NODE_ENV is 'test' inside vitest: the build must not inherit it (Vue and vue-i18n would ship their dev builds).
  if (stale)
    execFileSync('npm', ['run', 'build', '-w', '@tianji/admin'], {
      cwd: ROOT,
      stdio: 'pipe',
      env: { ...process.env, NODE_ENV: 'production' },
    });
}

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
