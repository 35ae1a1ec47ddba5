#!/usr/bin/env node
// In a checkout (src/ present) the TypeScript sources run through tsx, so they are never stale; an installed package
// ships only the bundle that `npm pack` builds (dist/tianji.cjs, @tianji/client and every dependency inside).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const src = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
if (existsSync(src)) {
  const r = spawnSync(
    process.execPath,
    ['--conditions=development', '--import', import.meta.resolve('tsx'), src, ...process.argv.slice(2)],
    { stdio: 'inherit' },
  );
  process.exitCode = r.status ?? 1;
} else {
  createRequire(import.meta.url)(fileURLToPath(new URL('../dist/tianji.cjs', import.meta.url)));
}
