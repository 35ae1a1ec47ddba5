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
  },
});
