/**
 * The one headless Chromium every browser test and browser behaviour driver launches: Debian's /usr/bin/chromium
 * through playwright-core. Missing, the browser tests are skipped with a note; under TIANJI_E2E=1 (CI) they fail.
 */
import fs from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export const hasChromium = fs.existsSync(CHROMIUM);
if (!hasChromium) {
  if (process.env.TIANJI_E2E === '1')
    throw new Error(`TIANJI_E2E=1 but ${CHROMIUM} is missing: apt-get install -y chromium`);
  console.warn(`[tianji e2e] ${CHROMIUM} not found: browser tests skipped (apt-get install -y chromium)`);
}

/**
 * Chromium's own start-up wait. Playwright's default is 30 s; on a 2-core host that is also building or running
 * other browsers, a cold start was seen to take longer, and a slow start is not what a browser test checks.
 */
const LAUNCH_TIMEOUT_MS = 120_000;

/** Launches headless Chromium: no sandbox (containers run as root), no GPU, no background traffic. */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    timeout: LAUNCH_TIMEOUT_MS,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
