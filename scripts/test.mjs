#!/usr/bin/env node
// `npm test` after the lint: the type-check and vitest at once. Vitest spends much of its time waiting (on Chromium,
// spawned CLI processes, access tokens expiring, PostgreSQL), so the type-check passes fill CPU it leaves idle
// instead of adding their ~40 s in front of it; they run at a lower priority, so they only take what vitest leaves.
// Arguments go to vitest. Fails when either fails; the type-check's report is printed whole when it ends.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { typecheck } from './typecheck.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

const vitest = new Promise((resolve) => {
  const child = spawn(path.join(root, 'node_modules/.bin/vitest'), ['run', ...process.argv.slice(2)], {
    cwd: root,
    stdio: 'inherit',
  });
  child.on('close', (code) => resolve(code === 0));
});
const [types, tests] = await Promise.all([typecheck({ priority: 10 }), vitest]);
if (!types) console.error('npm test: the type-check failed (see its report above)');
if (!types || !tests) process.exit(1);
