import os from 'node:os';
import { defineConfig } from 'vitest/config';

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
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Database suites on PostgreSQL share one server; files get their own schema, so parallel files are safe.
    pool: 'forks',
    // Files share their worker's module cache instead of each importing the server and its data sets afresh
    // (import time was most of a file's cost). Safe because no test mocks a module or leaves globals changed:
    // every file builds its own app on its own database, and fake clocks are restored after each test.
    isolate: false,
    // Vitest's default on 2 cores is one worker; test files mostly wait on PostgreSQL, argon2's thread pool
    // and Chromium, so two run side by side even there.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
  },
});
