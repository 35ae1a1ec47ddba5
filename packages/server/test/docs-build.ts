import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOCS_DIST } from '../src/web/docs-site.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DOCS = path.join(ROOT, 'docs');
const SKIP = new Set(['dist', 'cache', '.temp', 'screenshots', 'node_modules']);

/** The files under `dir` that `keep` accepts, build output and screenshots left out. */
export function docsFiles(dir: string, keep: (f: string) => boolean, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory() && !SKIP.has(e.name)) docsFiles(full, keep, out);
    else if (e.isFile() && keep(full)) out.push(full);
  }
  return out;
}

const LOCK = path.join(DOCS, '.vitepress', '.build-lock');
/** A lock older than this was left by a killed run. */
const LOCK_STALE_MS = 10 * 60_000;

/**
 * `npm run docs:build`, unless the built site is newer than every source of it (before an app is built on it). Test
 * files run in parallel workers and several build on the site: one builds while the others wait for it (a lock
 * directory), since two VitePress builds at once share `.vitepress/.temp` and fail.
 */
export function buildDocsIfStale(): void {
  for (;;) {
    if (isFresh()) return;
    try {
      fs.mkdirSync(LOCK);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const age = Date.now() - (fs.statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > LOCK_STALE_MS) fs.rmSync(LOCK, { recursive: true, force: true });
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
      continue;
    }
    try {
      if (isFresh()) return;
      const r = spawnSync(
        process.execPath,
        [path.join(ROOT, 'node_modules/vitepress/bin/vitepress.js'), 'build', 'docs'],
        { cwd: ROOT, encoding: 'utf8' },
      );
      if (r.status !== 0) throw new Error(`vitepress build failed:\n${r.stdout}\n${r.stderr}`);
      return;
    } finally {
      fs.rmSync(LOCK, { recursive: true, force: true });
    }
  }
}

function isFresh(): boolean {
  const built = path.join(DOCS_DIST, 'index.html');
  const newest = Math.max(...docsFiles(DOCS, () => true).map((f) => fs.statSync(f).mtimeMs));
  return fs.existsSync(built) && fs.statSync(built).mtimeMs > newest;
}
