/**
 * The session behaviour (scenarios.ts) in the admin app at /admin, desktop viewport, in Debian's Chromium.
 * Skipped with a note when /usr/bin/chromium is missing (a failure under TIANJI_E2E=1).
 */
import { afterAll } from 'vitest';
import { expectBuilt } from '../../../test/builds.js';
import { hasChromium } from '../../../test/chromium.js';
import { closeWebBrowser, webDriver } from './drivers/web.js';
import { describeClient } from './run.js';

afterAll(() => closeWebBrowser());
describeClient('web', webDriver(), {
  skip: hasChromium ? undefined : 'no /usr/bin/chromium',
  timeout: 120_000,
  beforeWorld: () => expectBuilt('admin'),
});
