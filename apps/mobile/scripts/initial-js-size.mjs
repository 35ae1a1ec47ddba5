/**
 * Gzipped size of the JavaScript a phone loads before the first page renders: the entry script of dist/index.html
 * and every module it preloads (the pages are separate chunks fetched on navigation). With --check it fails the
 * build when that passes the budget (150 KiB gzipped), so a heavy import shows up at once.
 *
 *   node apps/mobile/scripts/initial-js-size.mjs [--check]   (after `npm run build -w @tianji/mobile`)
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

export const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
export const BUDGET_GZIP = 150 * 1024;

export function initialJs(dist = DIST) {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const files = [
    ...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/m\/([^"]+\.js)"/g),
  ].map((m) => m[1]);
  const sizes = files.map((f) => {
    const body = fs.readFileSync(path.join(dist, f));
    return { file: f, bytes: body.length, gzip: zlib.gzipSync(body, { level: 9 }).length };
  });
  return { files: sizes, bytes: sizes.reduce((s, f) => s + f.bytes, 0), gzip: sizes.reduce((s, f) => s + f.gzip, 0) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const r = initialJs();
  const kib = (n) => (n / 1024).toFixed(1);
  for (const f of r.files)
    console.log(`${f.file.padEnd(40)} ${kib(f.bytes).padStart(8)} KiB  gzip ${kib(f.gzip).padStart(7)} KiB`);
  console.log(
    `mobile initial JavaScript: ${kib(r.bytes)} KiB, gzipped ${kib(r.gzip)} KiB (budget ${kib(BUDGET_GZIP)})`,
  );
  if (process.argv.includes('--check') && r.gzip > BUDGET_GZIP) {
    console.error(`initial JavaScript is over budget: ${kib(r.gzip)} KiB > ${kib(BUDGET_GZIP)} KiB gzipped`);
    process.exit(1);
  }
}
