/**
 * What the tests serve that a build makes: the admin app, the phone app and the documentation site. The global setup
 * (global-setup.ts) builds the stale ones once, before any test file starts, for the files that need them; a test
 * file only checks (`expectBuilt`). Building inside test files made each build compete with the tests around it and
 * pushed their start-up past its time-outs on a busy 2-core host.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));

export interface WebBuild {
  /** What is built, for messages. */
  title: string;
  /** The built file whose modification time dates the build. */
  output: string;
  /** What it is built from: a build older than any file under these is stale. */
  sources: string[];
  /** The build command (run from the repository's root). */
  command: string[];
  /** The test files that serve it. */
  usedBy: RegExp;
}

const at = (p: string) => path.join(ROOT, p);
const SHARED_WEB = ['packages/web-core/src', 'packages/client/src'];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export const BUILDS = {
  admin: {
    title: 'the admin app (apps/admin/dist)',
    output: at('apps/admin/dist/index.html'),
    sources: ['apps/admin/src', 'apps/admin/scripts', 'apps/admin/index.html', 'apps/admin/vite.config.ts', ...SHARED_WEB],
    command: [npm, 'run', 'build', '-w', '@tianji/admin'],
    usedBy: /\/apps\/admin\/test\/|\/behaviour\/web-desktop\.test\.ts$/,
  },
  mobile: {
    title: 'the phone app (apps/mobile/dist)',
    output: at('apps/mobile/dist/index.html'),
    sources: ['apps/mobile/src', 'apps/mobile/scripts', 'apps/mobile/index.html', 'apps/mobile/vite.config.ts', ...SHARED_WEB],
    command: [npm, 'run', 'build', '-w', '@tianji/mobile'],
    usedBy: /\/apps\/mobile\/test\/|\/behaviour\/web-mobile\.test\.ts$|\/apps\/admin\/test\/device-approval\.test\.ts$/,
  },
  docs: {
    title: 'the documentation site (docs/.vitepress/dist)',
    output: at('docs/.vitepress/dist/index.html'),
    sources: ['docs'],
    command: [process.execPath, at('node_modules/vitepress/bin/vitepress.js'), 'build', 'docs'],
    usedBy: /\/packages\/server\/test\/(docs-site|lookup-docs-page|api-reference)\.test\.ts$/,
  },
} satisfies Record<string, WebBuild>;
export type BuildName = keyof typeof BUILDS;

/** Build output, caches and screenshots under a source folder: not sources. */
const NOT_SOURCES = new Set(['dist', 'cache', '.temp', 'screenshots', 'node_modules']);

/** The files under `dir` that `keep` accepts, build output, caches and screenshots left out. */
export function filesUnder(dir: string, keep: (f: string) => boolean = () => true, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory() && !NOT_SOURCES.has(e.name)) filesUnder(full, keep, out);
    else if (e.isFile() && keep(full)) out.push(full);
  }
  return out;
}

/** True when the build's output is missing or older than one of its sources. */
export function isStale(b: WebBuild): boolean {
  const built = fs.statSync(b.output, { throwIfNoEntry: false });
  if (!built) return true;
  return b.sources.some((s) => {
    const st = fs.statSync(at(s), { throwIfNoEntry: false });
    if (!st) return false;
    const files = st.isDirectory() ? filesUnder(at(s)) : [at(s)];
    return files.some((f) => fs.statSync(f).mtimeMs > built.mtimeMs);
  });
}

/** Runs the build; rejects with its output when it fails. */
export function runBuild(b: WebBuild): Promise<void> {
  const [cmd, ...args] = b.command;
  return new Promise((resolve, reject) => {
    // Vitest sets NODE_ENV=test; a build that inherited it would ship Vue's and vue-i18n's development builds.
    const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, NODE_ENV: 'production' } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`building ${b.title} failed (${b.command.join(' ')}):\n${out}`)),
    );
  });
}

/**
 * Fails the calling test file when `name` is not built or stale: the global setup builds it before the run for the
 * files its `usedBy` matches, so a new file that serves it belongs there.
 */
export function expectBuilt(name: BuildName): void {
  const b = BUILDS[name];
  if (isStale(b))
    throw new Error(
      `${b.title} is missing or older than its sources: test/global-setup.ts builds it before the run for the test ` +
        `files that BUILDS.${name}.usedBy (test/builds.ts) matches; add this file there`,
    );
}
