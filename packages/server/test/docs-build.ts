import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOCS_DIST } from '../src/plugins/docs-site.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DOCS = path.join(ROOT, 'docs');
const SKIP = new Set(['dist', 'cache', 'screenshots', 'node_modules']);

/** The files under `dir` that `keep` accepts, build output and screenshots left out. */
export function docsFiles(dir: string, keep: (f: string) => boolean, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory() && !SKIP.has(e.name)) docsFiles(full, keep, out);
    else if (e.isFile() && keep(full)) out.push(full);
  }
  return out;
}

/** `npm run docs:build`, unless the built site is newer than every source of it (before an app is built on it). */
export function buildDocsIfStale(): void {
  const built = path.join(DOCS_DIST, 'index.html');
  const newest = Math.max(...docsFiles(DOCS, () => true).map((f) => fs.statSync(f).mtimeMs));
  if (fs.existsSync(built) && fs.statSync(built).mtimeMs > newest) return;
  const r = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/vitepress/bin/vitepress.js'), 'build', 'docs'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`vitepress build failed:\n${r.stdout}\n${r.stderr}`);
}
