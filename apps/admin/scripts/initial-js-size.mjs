/**
 * Gzipped size of the JavaScript a browser loads before the first page renders: the entry script of
 * dist/index.html and every module it preloads (the pages are separate chunks fetched on navigation).
 *
 *   node apps/admin/scripts/initial-js-size.mjs   (after `npm run build -w @tianji/admin`)
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

export const DIST = fileURLToPath(new URL('../dist/', import.meta.url));

export function initialJs(dist = DIST) {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const files = [
    ...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/admin\/([^"]+\.js)"/g),
  ].map((m) => m[1]);
  const sizes = files.map((f) => {
    const body = fs.readFileSync(path.join(dist, f));
    return { file: f, bytes: body.length, gzip: zlib.gzipSync(body, { level: 9 }).length };
  });
  return { files: sizes, bytes: sizes.reduce((s, f) => s + f.bytes, 0), gzip: sizes.reduce((s, f) => s + f.gzip, 0) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const r = initialJs();
  for (const f of r.files)
    console.log(
      `${f.file.padEnd(48)} ${(f.bytes / 1024).toFixed(1).padStart(8)} KiB  gzip ${(f.gzip / 1024).toFixed(1).padStart(7)} KiB`,
    );
  console.log(`initial JavaScript: ${(r.bytes / 1024).toFixed(1)} KiB, gzipped ${(r.gzip / 1024).toFixed(1)} KiB`);
}
