/**
 * Loaded with `--import` before bench/server.ts when bench/instructions.ts runs a server under valgrind, where
 * everything runs 5–50 times slower: turns off Fastify's plugin timeout (10 s by default; the default lives in one
 * shared object of Fastify's, read when an instance is created without the option) and stretches the app's own time
 * limits (`AbortSignal.timeout`: the password threads' 60 s start) fifty times.
 */
import { createRequire } from 'node:module';

const require = createRequire(new URL('../packages/server/package.json', import.meta.url));
require(require.resolve('fastify/lib/config-validator.js')).defaultInitOptions.pluginTimeout = 0;
const timeout = AbortSignal.timeout;
AbortSignal.timeout = (ms) => timeout.call(AbortSignal, ms * 50);
