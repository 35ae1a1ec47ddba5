/**
 * Writes .br and .gz copies of the built JS, CSS, HTML and SVG beside the originals, so the server sends them
 * compressed (@fastify/static `preCompressed`) without compressing on every request.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

// The admin app's dist by default; another app's build (apps/mobile) passes its own folder.
const dist = process.argv[2] ? path.resolve(process.argv[2]) : fileURLToPath(new URL('../dist/', import.meta.url));
let count = 0;
for (const entry of fs.readdirSync(dist, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !/\.(js|css|html|svg|json)$/.test(entry.name)) continue;
  const file = path.join(entry.parentPath ?? entry.path, entry.name);
  const body = fs.readFileSync(file);
  if (body.length < 1024) continue;
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
  fs.writeFileSync(
    `${file}.br`,
    zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  count++;
}
console.log(`compressed ${count} files in ${path.relative(process.cwd(), dist) || dist}`);
