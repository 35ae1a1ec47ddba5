// `npm pack` of @tianji/client: the packed package.json leaves out the `development` export condition, which points at
// src/ for the monorepo's own tools (vitest, Vite dev, tsx) and would send a consumer's bundler in development mode to
// sources the tarball does not carry. prepack strips it (keeping the original beside it); postpack puts it back.
//   node scripts/pack-manifest.mjs strip|restore
import fs from 'node:fs';

const manifest = new URL('../package.json', import.meta.url);
const kept = new URL('../package.json.pack-original', import.meta.url);

if (process.argv[2] === 'strip') {
  // A pack cut short left the original beside it: start from that, never from a stripped file.
  if (fs.existsSync(kept)) fs.copyFileSync(kept, manifest);
  const text = fs.readFileSync(manifest, 'utf8');
  fs.writeFileSync(kept, text);
  const pkg = JSON.parse(text);
  for (const entry of Object.values(pkg.exports)) delete entry.development;
  fs.writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
} else if (process.argv[2] === 'restore') {
  if (fs.existsSync(kept)) fs.renameSync(kept, manifest);
} else {
  throw new Error('usage: node scripts/pack-manifest.mjs strip|restore');
}
