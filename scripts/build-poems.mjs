#!/usr/bin/env node
// Builds data/content/poems.json: an extract of the chinese-poetry collection (MIT), converted to simplified characters.
//
// The full collection is 350 MB, so it is not a dependency of the service. To regenerate:
//   mkdir -p /tmp/poetry && cd /tmp/poetry && npm init -y && npm install chinese-poetry@2 opencc-js@1
//   node scripts/build-poems.mjs /tmp/poetry/node_modules
// Selection: all of 唐诗三百首, then the most searched Tang poems, Song poems and Song ci (by the collection's
// own search-engine rank files: baidu + so360 hits), skipping fragments (titles 句/失题) and very long pieces.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { cleanPoems } from './clean-poems.mjs';

const modules = path.resolve(process.argv[2] ?? 'node_modules');
const require = createRequire(path.join(modules, 'noop.js'));
const OpenCC = require('opencc-js');
const toSimplified = OpenCC.Converter({ from: 't', to: 'cn' });
const dist = path.join(modules, 'chinese-poetry', 'dist');
const read = (p) => JSON.parse(fs.readFileSync(path.join(dist, p), 'utf8'));
const list = (dir, re) =>
  fs
    .readdirSync(path.join(dist, dir))
    .filter((f) => re.test(f))
    .map((f) => path.join(dir, f));

const TARGET = { tang: 3000, song: 1500, ci: 1500 };
const MAX_LINES = 24;

function rankMap(files, keyOf) {
  const m = new Map();
  for (const f of files) for (const r of read(f)) m.set(keyOf(r), (r.baidu ?? 0) + (r.so360 ?? 0));
  return m;
}

const usable = (p) =>
  p.paragraphs?.length > 0 &&
  p.paragraphs.length <= MAX_LINES &&
  !/^(句|失题|断句)/.test(p.title ?? p.rhythmic ?? '') &&
  p.paragraphs.every((l) => l && !/[□]/.test(l));

const poemRank = rankMap(list('rank/poet', /^poet\.(tang|song)\.rank\.\d+\.json$/), (r) => `${r.author}|${r.title}`);
const ciRank = rankMap(list('rank/ci', /^ci\.song\.rank\.\d+\.json$/), (r) => `${r.author}|${r.rhythmic}`);

const out = [];
const seen = new Set();
function add(p, dynasty, title) {
  const entry = {
    id: p.id ?? undefined,
    title: toSimplified(title),
    author: toSimplified(p.author),
    dynasty,
    lines: p.paragraphs.map((l) => toSimplified(l.trim())),
  };
  const key = `${entry.author}|${entry.title}|${entry.lines[0]}`;
  if (seen.has(key)) return false;
  seen.add(key);
  out.push(entry);
  return true;
}

for (const p of read('quantangshi/唐诗三百首.json')) if (usable(p)) add(p, '唐', p.title);

function top(files, rank, keyOf, n, dynasty, titleOf) {
  const all = [];
  for (const f of files) for (const p of read(f)) if (usable(p)) all.push([rank.get(keyOf(p)) ?? 0, p]);
  all.sort((a, b) => b[0] - a[0]);
  let added = 0;
  for (const [, p] of all) {
    if (added >= n) break;
    if (add(p, dynasty, titleOf(p))) added++;
  }
}

top(
  list('quantangshi', /^poet\.tang\.\d+\.json$/),
  poemRank,
  (p) => `${p.author}|${p.title}`,
  TARGET.tang - out.length,
  '唐',
  (p) => p.title,
);
top(
  list('quantangshi', /^poet\.song\.\d+\.json$/),
  poemRank,
  (p) => `${p.author}|${p.title}`,
  TARGET.song,
  '宋',
  (p) => p.title,
);
top(
  list('songci', /^ci\.song\.\d+\.json$/),
  ciRank,
  (p) => `${p.author}|${p.rhythmic}`,
  TARGET.ci,
  '宋',
  (p) => p.rhythmic,
);

const ids = new Set();
for (const e of out) {
  e.featured = e.lines[0];
  // The collection reuses ids between its files: keep an id only the first time it appears.
  if (e.id && ids.has(e.id)) e.id = undefined;
  if (e.id) ids.add(e.id);
}
const file = new URL('../data/content/poems.json', import.meta.url);
const cleaned = cleanPoems(out.map(({ id, ...rest }) => (id ? { id, ...rest } : rest)));
fs.writeFileSync(file, JSON.stringify(cleaned));
console.log(`wrote ${cleaned.length} poems to ${file.pathname}`);
