/**
 * The session behaviour (scenarios.ts) in the mobile web app at /m/ (390×844). Pending: apps/mobile is being built
 * in another branch; its driver implements ClientDriver (driver.ts) like drivers/web.ts, with the mobile app's
 * selectors, and replaces the skip below once that app is merged. Every mobile cell of the README matrix says pending.
 */
import { describe, it } from 'vitest';

describe.skip('session behaviour, mobile client (pending: apps/mobile at /m/ is not merged yet; the lead wires its driver)', () => {
  it('runs SCENARIOS through a mobile ClientDriver', () => undefined);
});
