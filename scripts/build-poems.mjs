#!/usr/bin/env node
// Builds data/content/poems.json: an extract of the chinese-poetry collection (MIT), converted to simplified characters.
//
// The full collection is 350 MB, so it is not a dependency of the service. To regenerate (the output is the same
// byte for byte on every run):
//   mkdir -p /tmp/poetry && cd /tmp/poetry && npm init -y && npm install chinese-poetry@2.0.1 opencc-js@1.4.2
//   npx tsx scripts/build-poems.mjs /tmp/poetry/node_modules
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

/**
 * The collection's Song ci were converted to GB2312, which cut an author's name at its first character outside that
 * set: 向滈 became 向, 张鎡 张, 曾慥 曾 (its rank files show the same cut: 张 counts 张鎡's 59 ci and the 32 cut ones).
 * A cut name is restored from where the entry stands in the collection, keyed `previous author>cut name`, the
 * previous author being the last different name before it in the collection's order (全宋词's):
 * - runs of the cut name between runs of the full name are that poet's (向 between 向滈, 张 between 张鎡, 曾 around 曾惇);
 * - the others are the poet of 全宋词 who stands there, whose name has a character outside GB2312 (昪 諲 昉 珪 楶
 *   綯 慥 晫 崙), checked against the collection's author notes (author.song.json: 章楶 "字质夫", 张昪 "字杲卿") and
 *   against poets born in the same years around them (王珪 between 刘敞 and 韩缜, all born 1019).
 * Names are given as the file shows them (simplified), keys as the collection spells them.
 * Any other cut name (张 after 张震, 何 after 蔡伸, 韩 after 魏子敬 …): the poet could not be established from the
 * collection, so the entry is left out rather than misattributed.
 */
const CUT_AUTHORS = {
  '滕宗谅>张': '张昪',
  '欧阳修>荣': '荣諲', // not converted: its simplified form 𬤇 (U+2C907) is missing from most fonts
  '苏舜钦>解': '解昉',
  '刘敞>王': '王珪',
  '寿涯禅师>章': '章楶',
  '向滈>向': '向滈',
  '宋先生>张': '张镃',
  '张鎡>张': '张镃',
  '欧阳澈>曾': '曾惇',
  '曾惇>曾': '曾惇',
  '程过>曾': '曾慥',
  '宋江>袁': '袁绹',
  '吴康>汪': '汪晫',
  '梁栋>莫': '莫仑',
};
const ciFiles = list('songci', /^ci\.song\.\d+\.json$/).sort(
  (a, b) => Number(a.match(/(\d+)\.json$/)[1]) - Number(b.match(/(\d+)\.json$/)[1]),
);
/** The restored author of each ci whose name was cut (null: left out), by entry. */
const restoredAuthor = new Map();
{
  let previous = '';
  let current = '';
  for (const f of ciFiles)
    for (const p of read(f)) {
      if (p.author !== current) [previous, current] = [current, p.author];
      if ([...p.author].length !== 1) continue;
      restoredAuthor.set(`${f}#${p.rhythmic}#${p.paragraphs[0]}`, CUT_AUTHORS[`${previous}>${p.author}`] ?? null);
    }
}

const poemRank = rankMap(list('rank/poet', /^poet\.(tang|song)\.rank\.\d+\.json$/), (r) => `${r.author}|${r.title}`);
const ciRank = rankMap(list('rank/ci', /^ci\.song\.rank\.\d+\.json$/), (r) => `${r.author}|${r.rhythmic}`);

const out = [];
const seen = new Set();
function add(p, dynasty, title, author = p.author, restored = false) {
  if (author === null) return false;
  const entry = {
    id: p.id ?? undefined,
    title: toSimplified(title),
    author: restored ? author : toSimplified(author),
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

function top(files, rank, keyOf, n, dynasty, titleOf, authorOf = () => undefined) {
  const all = [];
  for (const f of files) for (const p of read(f)) if (usable(p)) all.push([rank.get(keyOf(p)) ?? 0, p, f]);
  all.sort((a, b) => b[0] - a[0]);
  let added = 0;
  for (const [, p, f] of all) {
    if (added >= n) break;
    const restored = authorOf(f, p);
    if (add(p, dynasty, titleOf(p), restored === undefined ? p.author : restored, restored !== undefined)) added++;
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
  (f, p) => {
    const key = `${f}#${p.rhythmic}#${p.paragraphs[0]}`;
    return restoredAuthor.get(key);
  },
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
