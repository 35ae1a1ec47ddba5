#!/usr/bin/env -S npx tsx
// Grows data/content/hitokoto.json with public-domain sentences from the chinese-poetry collection (MIT), converted
// to simplified characters with opencc-js's t2s and then the project's variant table (variant-chars.ts: 隣 → 邻), as
// scripts/build-poems.mjs does for the poems. Each work sits in one category (hitokoto.cn's: d 文学 is prose
// literature, i 诗词 verse, k 哲学 the thinkers):
//   i 诗词  诗经 stanzas, 屈原's lines of 楚辞, then the couplets of the poems of data/content/poems.json, in that
//           file's order (唐诗三百首 first, then the collection's own search-rank order), until the hand-written
//           rows and the couplets number I_TARGET
//   d 文学  幽梦影 (张潮)
//   k 哲学  论语 and 孟子 (sayings of one named speaker), 大学 and 中庸 (their sentences)
// Every row says where it comes from in `source`: this script's rows `npm:chinese-poetry@<version>`.
// Every sentence is whole (ends as a sentence, quotes balanced), 8–100 characters, encodable in GBK, and neither the
// same as nor part of another one. The rows written by hand (every row whose commit_from is not 'chinese-poetry') are kept as they are, first; the
// rows of this script are replaced on every run, so running it twice gives the same file. Ids are name-based UUIDs
// (version 5) of the source and the sentence, so a sentence keeps its id and its drop-in number across runs.
//
// The collection is 350 MB, so it is not a dependency of the service. To regenerate:
//   mkdir -p /tmp/poetry && cd /tmp/poetry && npm init -y && npm install chinese-poetry@2.0.1 opencc-js@1.4.2
//   npx tsx scripts/build-hitokoto-classics.mjs /tmp/poetry/node_modules
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { normaliseText } from '../packages/server/src/content/content-lint.ts';
import { standardChars } from '../packages/server/src/content/variant-chars.ts';

const modules = path.resolve(process.argv[2] ?? 'node_modules');
const require = createRequire(path.join(modules, 'noop.js'));
const OpenCC = require('opencc-js');
// iconv-lite is the server's own dependency: resolved from this repository, not from the collection's folder.
const iconv = createRequire(import.meta.url)('iconv-lite');
const toSimplified = OpenCC.Converter({ from: 't', to: 'cn' });
const dist = path.join(modules, 'chinese-poetry', 'dist');
const read = (p) => JSON.parse(fs.readFileSync(path.join(dist, p), 'utf8'));

const FILE = new URL('../data/content/hitokoto.json', import.meta.url);
const POEMS = new URL('../data/content/poems.json', import.meta.url);
const SOURCE = 'chinese-poetry';
/** The provenance of this script's rows: the package and version they were extracted from. */
const PROVENANCE = `npm:${SOURCE}@${JSON.parse(fs.readFileSync(path.join(modules, SOURCE, 'package.json'), 'utf8')).version}`;
const I_TARGET = 2600;
const MIN_CHARS = 8;
const MAX_CHARS = 100;

/** RFC 4122 version-5 UUID of `name` in a namespace of this script's own (a fixed random UUID). */
const NAMESPACE = Buffer.from('6f1d3c2a9b8e4f7a8c5d2e1f0a9b8c7d', 'hex');
function uuid5(name) {
  const h = createHash('sha1').update(NAMESPACE).update(name, 'utf8').digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

const chars = (s) => [...s].length;
/** Punctuation, spaces, case and variant characters aside (the data lint's normaliseText): the same sentence. */
const norm = normaliseText;
/** A whole sentence: ends as one, quotes balanced, no editorial marks of the collection. */
const complete = (s) =>
  /[。！？]["”’]?$/.test(s) &&
  !/[[\]［］□■（）()〖〗{}<>]/.test(s) &&
  (s.match(/“/g) ?? []).length === (s.match(/”/g) ?? []).length &&
  (s.match(/‘/g) ?? []).length === (s.match(/’/g) ?? []).length;
/** Traditional quotation marks to the simplified ones (『』 inside 「」 become ‘’). */
const quotes = (s) => s.replace(/「/g, '“').replace(/」/g, '”').replace(/『/g, '‘').replace(/』/g, '’');
const clean = (s) => standardChars(quotes(toSimplified(s.trim())));
/**
 * The ids of the rows this script wrote before, by sentence (normalised): a sentence keeps its id when its text is
 * corrected (variant characters written in their standard form since issue 50; the id was made from the old text).
 */
const earlierIds = new Map(
  JSON.parse(fs.readFileSync(FILE, 'utf8'))
    .filter((r) => r.commit_from === SOURCE)
    .map((r) => [norm(r.content), r.id]),
);
/** Every character has a GBK code, so the drop-in's `charset=gbk` answers the sentence whole (no `?`). */
const inGbk = (s) => iconv.decode(iconv.encode(s, 'gbk'), 'gbk') === s;
/**
 * A poem's title as a reader writes it: the collection's 乐府 heading dropped (`鼓吹曲辞 将进酒` → `将进酒`), a
 * numbered piece as 其N (`无题二首 一` → `无题二首·其一`), other parts joined by · (`辋川集 鹿柴` → `辋川集·鹿柴`).
 */
const poemTitle = (t) =>
  t
    .replace(/^\S+(?:曲辞|歌辞)\s+/, '')
    .split(/\s+/)
    .map((part, i) => (i > 0 && /^其?[一二三四五六七八九十百廿]+$/.test(part) ? `其${part.replace(/^其/, '')}` : part))
    .join('·');

const kept = JSON.parse(fs.readFileSync(FILE, 'utf8')).filter((r) => r.commit_from !== SOURCE);
const taken = kept.map((r) => norm(r.content));
const seen = new Set(taken);
const out = [];
const counts = {};

/**
 * Adds one sentence unless it is incomplete, too short or long, or the same as (or part of, or containing) one
 * already in the library: 学而时习之，不亦说乎？ is in the hand-written rows, so the whole 论语 chapter that starts
 * with it is not added again.
 */
function add(type, content, from, fromWho, source) {
  const n = norm(content);
  const len = chars(content);
  if (!complete(content) || !inGbk(content) || len < MIN_CHARS || len > MAX_CHARS || seen.has(n)) return false;
  if (taken.some((t) => (t.length >= 6 && n.includes(t)) || (n.length >= 6 && t.includes(n)))) return false;
  seen.add(n);
  taken.push(n);
  out.push({
    id: earlierIds.get(n) ?? uuid5(`${source}|${content}`),
    type,
    content,
    from,
    from_who: fromWho,
    creator: 'tianji',
    commit_from: SOURCE,
    source: PROVENANCE,
  });
  counts[source] = (counts[source] ?? 0) + 1;
  return true;
}

// k 哲学 ── 论语: a chapter that is one saying of one named person (子曰：“…”).
const LUNYU_SPEAKERS = {
  子: '孔子',
  孔子: '孔子',
  有子: '有子',
  曾子: '曾子',
  子夏: '子夏',
  子游: '子游',
  子贡: '子贡',
  子张: '子张',
};
for (const c of read('lunyu/lunyu.json')) {
  const chapter = c.chapter.replace(/篇$/, '');
  for (const p of c.paragraphs) {
    const m = /^([^“”：，。]{1,4})曰：“([^“”]+)”$/.exec(clean(p));
    if (m && LUNYU_SPEAKERS[m[1]]) add('k', m[2], `论语·${chapter}`, LUNYU_SPEAKERS[m[1]], 'lunyu');
  }
}
// 孟子: the same, 孟子曰：「…」.
for (const c of read('sishuwujing/mengzi.json')) {
  for (const p of c.paragraphs) {
    const m = /^孟子曰：“(.+)”$/.exec(clean(p));
    if (m && !/[“”]/.test(m[1].replace(/‘[^‘’]*’/g, ''))) add('k', m[1], `孟子·${clean(c.chapter)}`, '孟子', 'mengzi');
  }
}
// 大学, 中庸: their sentences that quote nobody (no 曰, no quotation marks); the texts name no author.
for (const [file, title] of [
  ['sishuwujing/daxue.json', '大学'],
  ['sishuwujing/zhongyong.json', '中庸'],
]) {
  for (const p of read(file).paragraphs)
    for (const s of clean(p).match(/[^。！？]+[。！？]/g) ?? [])
      if (!/曰|[“”‘’]/.test(s)) add('k', s, title, null, title === '大学' ? 'daxue' : 'zhongyong');
}

// i 诗词 ── 诗经: each stanza; the poets are unknown (佚名, as the hand-written rows have it). Classical verse, so i
// (before issue 50 they were filed under d, which hitokoto.cn keeps for prose: 小说、散文、戏剧).
for (const poem of read('shijing/shijing.json'))
  for (const stanza of poem.content) add('i', clean(stanza), `诗经·${clean(poem.title)}`, '佚名', 'shijing');
// 楚辞: 屈原's lines that are whole sentences (九歌's lines carry no punctuation of their own and are left out).
for (const poem of read('chuci/chuci.json')) {
  if (poem.author !== '屈原') continue;
  const title = poem.section === poem.title ? clean(poem.title) : `${clean(poem.section)}·${clean(poem.title)}`;
  for (const line of poem.content) add('i', clean(line), `楚辞·${title}`, '屈原', 'chuci');
}
// d 文学 ── 幽梦影 (清 张潮), prose aphorisms: without the friends' comments printed after each.
for (const x of read('youmengying/youmengying.json')) add('d', clean(x.content), '幽梦影', '张潮', 'youmengying');

// i 诗词 ── the couplets of the best-known poems, in poems.json's order, until they and the hand-written verse
// number I_TARGET (诗经 and 楚辞 are not counted: they came on top when they moved from d to i).
const handWrittenI = kept.filter((r) => r.type === 'i').length;
for (const poem of JSON.parse(fs.readFileSync(POEMS, 'utf8'))) {
  if (handWrittenI + (counts.poems ?? 0) >= I_TARGET) break;
  for (const line of poem.lines) add('i', line, poemTitle(poem.title), poem.author, 'poems');
}

const rows = [...kept, ...out];
fs.writeFileSync(FILE, `${JSON.stringify(rows, null, 2)}\n`);
const byType = {};
for (const r of rows) byType[r.type] = (byType[r.type] ?? 0) + 1;
console.log(`wrote ${rows.length} sentences (${kept.length} kept, ${out.length} from ${SOURCE})`);
console.log('by source:', counts);
console.log('by type:', Object.fromEntries(Object.entries(byType).sort()));
