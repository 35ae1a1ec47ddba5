/**
 * `npm start` runs this before the server: it builds every workspace (`npm run build`) only when a build input
 * changed since the last successful build, or when a build output is missing (a fresh clone builds once). The
 * inputs' fingerprint (a SHA-256 over their paths and contents) is kept next to the server's build output.
 *
 *   node scripts/build-if-changed.mjs [--force]
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WORKSPACES = ['packages/server', 'packages/client', 'apps/admin', 'apps/mobile', 'docs'];
/** What each workspace's build writes; a missing one means "build". */
const OUTPUTS = [
  'packages/server/dist/server.js',
  'packages/client/dist',
  'apps/admin/dist/index.html',
  'apps/mobile/dist/index.html',
  'docs/.vitepress/dist/index.html',
];
const STAMP = path.join(root, 'packages/server/dist/.build-inputs');
const ROOT_INPUTS = ['package.json', 'package-lock.json', 'tsconfig.base.json'];
/** Not build inputs: outputs, dependencies, tests. */
const SKIP_DIRS = new Set(['node_modules', 'dist', 'cache', 'test', 'test-results', 'coverage']);
const isTest = (name) => /\.test\.[cm]?[jt]s$/.test(name) || name.endsWith('.tsbuildinfo');

function listFiles(dir, out) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) listFiles(full, out);
    } else if (entry.isFile() && !isTest(entry.name)) {
      out.push(full);
    }
  }
  return out;
}

function fingerprint() {
  const hash = createHash('sha256');
  const files = [
    ...ROOT_INPUTS.map((f) => path.join(root, f)),
    ...WORKSPACES.flatMap((w) => listFiles(path.join(root, w), [])),
  ];
  for (const file of files) {
    if (!fs.existsSync(file)) continue;
    hash.update(path.relative(root, file)).update('\0').update(fs.readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

const force = process.argv.includes('--force');
const current = fingerprint();
const stored = fs.existsSync(STAMP) ? fs.readFileSync(STAMP, 'utf8').trim() : '';
const missing = OUTPUTS.filter((o) => !fs.existsSync(path.join(root, o)));

if (!force && stored === current && missing.length === 0) {
  console.log('build: up to date (no build input changed)');
} else {
  console.log(
    `build: ${force ? 'forced' : missing.length ? `missing ${missing.join(', ')}` : 'sources changed'}; running npm run build`,
  );
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  fs.writeFileSync(STAMP, `${current}\n`);
}
