#!/usr/bin/env node
// Type-checks every workspace at once rather than one after another (`npm run typecheck`). Each pass is
// incremental: its build info sits in node_modules/.cache/tsbuildinfo, so an unchanged project checks in moments.
// Output of each pass is printed whole when it ends, so the passes' errors do not interleave.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cache = path.join(root, 'node_modules/.cache/tsbuildinfo');
mkdirSync(cache, { recursive: true });

const passes = [
  { name: 'server', bin: 'tsc', project: 'packages/server' },
  { name: 'client', bin: 'tsc', project: 'packages/client' },
  { name: 'cli', bin: 'tsc', project: 'packages/cli' },
  { name: 'admin', bin: 'vue-tsc', project: 'apps/admin/tsconfig.json' },
  { name: 'mobile', bin: 'vue-tsc', project: 'apps/mobile/tsconfig.json' },
  { name: 'mobile-test', bin: 'tsc', project: 'apps/mobile/test/tsconfig.json' },
];

function run({ name, bin, project }) {
  const args = [
    '-p',
    project,
    '--noEmit',
    '--incremental',
    '--tsBuildInfoFile',
    path.join(cache, `${name}.tsbuildinfo`),
  ];
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(path.join(root, 'node_modules/.bin', bin), args, { cwd: root });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => {
      const secs = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`${code === 0 ? 'ok  ' : 'FAIL'} ${bin} -p ${project} (${secs} s)\n${out}`);
      resolve(code === 0);
    });
  });
}

const results = await Promise.all(passes.map(run));
if (results.includes(false)) process.exit(1);
