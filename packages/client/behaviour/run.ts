/**
 * Runs the scenario table for one client: one real server per file, a fresh driver per scenario. Scenarios the
 * client does not cover yet are reported as skipped with their reason.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { ClientDriver, ClientKind } from './driver.js';
import { SCENARIOS } from './scenarios.js';
import { startWorld, type World } from './world.js';

export function describeClient(
  kind: ClientKind,
  makeDriver: (world: World) => Promise<ClientDriver>,
  opts: { skip?: string; timeout?: number; beforeWorld?: () => void } = {},
): void {
  describe.skipIf(Boolean(opts.skip))(`session behaviour, ${kind} client${opts.skip ? ` (${opts.skip})` : ''}`, () => {
    let world: World;
    beforeAll(async () => {
      opts.beforeWorld?.(); // e.g. check the web app is built: the server serves what exists when it starts
      world = await startWorld();
    });
    afterAll(() => world?.close());

    for (const s of SCENARIOS) {
      const coverage = s.clients[kind];
      const name = `${s.id}: ${s.title.zh} (${s.title.en})`;
      if (typeof coverage === 'object' && 'pending' in coverage) {
        it.skip(`${name} — pending: ${coverage.pending}`, () => undefined);
        continue;
      }
      if (typeof coverage === 'object' && 'na' in coverage) {
        it.skip(`${name} — does not apply: ${coverage.na}`, () => undefined);
        continue;
      }
      it(name, { timeout: opts.timeout ?? 60_000 }, async () => {
        const d = await makeDriver(world);
        try {
          await s.run(d, world);
        } finally {
          await d.close();
        }
      });
    }
  });
}
