#!/usr/bin/env node
// The built bundle when there is one (npm pack / npm i -g build it); in a checkout, the TypeScript sources through tsx.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const bundle = fileURLToPath(new URL('../dist/tianji.cjs', import.meta.url));
if (existsSync(bundle)) {
  createRequire(import.meta.url)(bundle);
} else {
  const src = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
  const r = spawnSync(process.execPath, ['--conditions=development', '--import', 'tsx', src, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exitCode = r.status ?? 1;
}
