#!/usr/bin/env node
// Type-checks every workspace at once rather than one after another (`npm run typecheck`). Each pass is
// incremental: its build info sits in node_modules/.cache/tsbuildinfo, so an unchanged project checks in moments.
// Output of each pass is printed whole when it ends, so the passes' errors do not interleave.
// Projects with the same compiler options share one program (tsconfig.typecheck-*.json at the root): the server's
// sources, which the client, the CLI and the browser tests all import, are then checked twice in all, not four times.
// Plain TypeScript projects are checked by TypeScript 7, the native compiler (`typescript-native`, about a third of
// TypeScript 5's CPU here, same diagnostics); the Vue apps by vue-tsc, which needs TypeScript 5's JavaScript API.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cache = path.join(root, 'node_modules/.cache/tsbuildinfo');

const TSC = 'node_modules/typescript-native/bin/tsc';
const VUE_TSC = 'node_modules/vue-tsc/bin/vue-tsc.js';
const passes = [
  // No DOM library here, unlike every other pass: the server must not use browser globals. Also bench/ and
  // scripts/*.ts, which import the server's sources (packages/server/tsconfig.json).
  { name: 'server', bin: TSC, project: 'packages/server' },
  // packages/client and packages/cli (identical options), and scripts/docs-reference.ts, which imports the CLI.
  { name: 'clients', bin: TSC, project: 'tsconfig.typecheck-clients.json' },
  // The admin app and the documentation site's config and theme (identical options; the theme is a Vue component).
  { name: 'admin', bin: VUE_TSC, project: 'tsconfig.typecheck-admin.json' },
  { name: 'mobile', bin: VUE_TSC, project: 'apps/mobile/tsconfig.json' },
  // The browser tests and unit tests of both web apps (apps/*/test/tsconfig.json, identical options), and the Vite
  // and Vitest configs, which run in Node as the tests do.
  { name: 'web-tests', bin: TSC, project: 'tsconfig.typecheck-web-tests.json' },
];

function run({ name, bin, project }, priority) {
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
    const child = spawn(process.execPath, [path.join(root, bin), ...args], { cwd: root });
    if (priority) os.setPriority(child.pid, priority);
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => {
      const secs = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`${code === 0 ? 'ok  ' : 'FAIL'} ${name}: ${project} (${secs} s)\n${out}`);
      resolve(code === 0);
    });
  });
}

/**
 * Runs every pass at once; true when all pass. `priority` (a nice value) lets the passes yield the CPU to work that
 * runs alongside them (scripts/test.mjs).
 */
export async function typecheck({ priority = 0 } = {}) {
  mkdirSync(cache, { recursive: true });
  const results = await Promise.all(passes.map((p) => run(p, priority)));
  return !results.includes(false);
}

if (process.argv[1] === fileURLToPath(import.meta.url) && !(await typecheck())) process.exit(1);
