import os from 'node:os';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The longest files, in the order they should start. Vitest orders files by their last duration, which a fresh clone
 * (CI) does not have: it then runs the largest files first, and these small files came last, leaving one worker
 * alone with a minute of work at the end. First those that drive Chromium or spawn processes (mostly waiting on the
 * browser, the CLI or an access token's expiry, so the short server files fill that time), then the property and
 * corpus tests that loop on the CPU.
 */
const LONG_FILES = [
  /\/behaviour\//,
  /\/apps\/[^/]+\/test\//,
  /\/packages\/cli\/test\//,
  /\/(password-matchers|password-pool|privilege-escalation|super-admin-protection|lookup-fuzz)\.test\.ts$/,
];

class LongFirst extends BaseSequencer {
  async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = LONG_FILES.findIndex((re) => re.test(f.moduleId));
      return i < 0 ? LONG_FILES.length : i;
    };
    return sorted.sort((a, b) => rank(a) - rank(b)); // stable: the base order holds within a rank
  }
}

export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'apps/*/src/**/*.test.ts',
      'apps/*/test/**/*.test.ts',
      // The session behaviour table run per client, and the SDK examples (packages/client).
      'packages/*/behaviour/**/*.test.ts',
      'packages/*/examples/**/*.test.ts',
    ],
    // The web apps and the documentation site, built once before any file starts (only those the selected files
    // serve, only when stale), so no test file's hook builds while the others run.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    // Hooks start what the tests talk to: an app on a fresh database (migrations, argon2-hashed seed passwords),
    // Chromium, a spawned CLI or server. Idle, each takes a second or two; on a 2-core host shared with the
    // type-check, other test files and other work, a server start was seen to take two minutes. Five minutes lets a
    // slow start through while a hung one still fails the file.
    hookTimeout: 300_000,
    // Database suites on PostgreSQL share one server; files get their own schema, so parallel files are safe.
    pool: 'forks',
    // Files share their worker's module cache instead of each importing the server and its data sets afresh
    // (import time was most of a file's cost). Safe because no test mocks a module or leaves globals changed:
    // every file builds its own app on its own database, and fake clocks are restored after each test.
    isolate: false,
    // Vitest's default on 2 cores is one worker; test files mostly wait on PostgreSQL, argon2's thread pool
    // and Chromium, so two run side by side even there.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    sequence: { sequencer: LongFirst },
  },
});
