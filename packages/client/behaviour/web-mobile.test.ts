/**
 * The session behaviour (scenarios.ts) in the phone app at /m/, 390×844 with touch, in Debian's Chromium.
 * Skipped with a note when /usr/bin/chromium is missing (a failure under TIANJI_E2E=1).
 */
import { afterAll } from 'vitest';
import { expectBuilt } from '../../../test/builds.js';
import { hasChromium } from '../../../test/chromium.js';
import { mobileDriver } from './drivers/mobile.js';
import { closeWebBrowser } from './drivers/web.js';
import { describeClient } from './run.js';

afterAll(() => closeWebBrowser());
describeClient('mobile', mobileDriver(), {
  skip: hasChromium ? undefined : 'no /usr/bin/chromium',
  timeout: 120_000,
  beforeWorld: () => expectBuilt('mobile'),
});
