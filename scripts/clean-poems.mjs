#!/usr/bin/env -S npx tsx
// Cleans data/content/poems.json in place (idempotent); build-poems.mjs runs the same cleaning on a fresh extract.
//   npx tsx scripts/clean-poems.mjs
// (tsx, because the rules it shares with the data lint live in packages/server/src/content/content-lint.ts.)
// What it does, and why (packages/server/src/content/content-lint.test.ts checks the result):
// - `[妆]` marks a character the editors restored: kept, brackets dropped; `[二八]` is a footnote number: dropped.
// - A poem whose lines still carry collation apparatus (（一作「美」）, （见《类说》…）, 〖1〗) is dropped: the notes are
//   interleaved with the verse and cannot be removed reliably.
// - Entries without a title or without a line of verse (title "", lines ["。"]) are dropped, as are poems whose
//   author is unknown or garbled (杨□, □州司马, 史{隽乃=冏}之, 芙蓉古丈夫　毛女).
// - A digit the collection appends to tell two namesakes apart (王炎2) is dropped from the name; 敦煌人作品[一] is 无名氏.
// - Poets of the Five Dynasties that 全唐诗 includes (李煜, 和凝, …) are labelled 五代.
// - A poem with a lost line typed as `囗囗囗囗囗囗囗` (囗 U+56D7 for □) is dropped: the line cannot be restored.
// - Quotation marks set the wrong way round (`却道”小梅摇落、不禁风。“`) are turned; stray ones in a title
//   (`凉州词二首” 二`) are removed.
// - Duplicates (the same verse, punctuation aside) keep the first entry (唐诗三百首 comes first).
// - One poem in two editions (variant characters, a few words: findSamePoems in content-lint.ts) is kept once:
//   under one author, the entry whose title has no 乐府 category (`横吹曲辞 出塞` is 《凉州词》), else the first;
//   under two authors, the attribution in PREFERRED (the standard one, e.g. 杜牧《赤壁》, not 李商隐), else the
//   first (唐诗三百首's, or the more searched of two 全宋词 互见 entries).
// - `featured` falls back to the first line when it is no longer one of the lines.
// - A poem whose lines lost a character in the source (a half-line one character short of all the others:
//   `不容凡鸟坐，应欲俟栖。`, lostCharacterLine in content-lint.ts) is dropped: the character cannot be restored.
// - Every poem gets a fixed id: the collection's own when it has one, else a UUID v5 of its normalised
//   author|title|first line (stablePoemId), so every installation seeds the same poem under the same id.
// - Last (after the id, which stays what it was), variant characters of the title and lines are written in their
//   standard form (variant-chars.ts: 隣 → 邻, 劒 → 剑): opencc's t2s leaves them as they are.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { v5 as uuidv5 } from 'uuid';
import {
  findSamePoems,
  lostCharacterLine,
  normaliseText,
  quoteProblem,
  YUEFU_PREFIX,
} from '../packages/server/src/content/content-lint.ts';
import { standardChars } from '../packages/server/src/content/variant-chars.ts';

const FIVE_DYNASTIES = new Set([
  '李煜',
  '李璟',
  '冯延巳',
  '和凝',
  '李珣',
  '李中',
  '孙光宪',
  '欧阳炯',
  '顾夐',
  '鹿虔扆',
  '毛文锡',
  '牛希济',
  '花蕊夫人',
  '徐铉',
]);
const NUMERAL = /^[一二三四五六七八九十○〇零百0-9]+$/u;
const APPARATUS = /[（）()「」『』〖〗[\]［］□{}]/u;
const HAN = /\p{Script=Han}/u;

/** Namespace of the poems' UUID v5 ids (itself uuidv5('tianji:poems', uuidv5.URL)); never change it. */
const POEM_ID_NAMESPACE = '67089b75-d4fc-5a3a-a02c-8c8111c4b124';

/**
 * The fixed id of a poem the collection gave no id: a UUID v5 of its normalised author, title and first line, as the
 * collection writes them. Frozen (punctuation, spaces and case removed, variant characters kept as they were when
 * the ids were first given): never change it, or shipped poems change their ids.
 */
const idText = (s) =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}\s]/gu, '');
export const stablePoemId = (p) => uuidv5([p.author, p.title, p.lines[0]].map(idText).join('|'), POEM_ID_NAMESPACE);

/** The entry that keeps a poem the collection has under two authors (the standard attribution). */
const PREFERRED = new Set([
  '杜牧《赤壁》',
  '皇甫冉《春思》',
  '崔涂《巴山道中除夜书怀》',
  '宋之问《渡汉江》',
  '贺知章《回乡偶书二首 一》',
  '王昌龄《从军行七首 三》',
  '不详《杂曲歌辞 金缕衣》',
]);
const preferred = (p) => PREFERRED.has(`${p.author}《${p.title}》`);

/** Turns quotation marks set the wrong way round; drops a title's stray ones. Undefined when it cannot. */
function fixQuotes(s, isTitle) {
  if (!quoteProblem(s)) return s;
  const turned = s.replace(/[“”]/gu, (q) => (q === '“' ? '”' : '“')).replace(/[‘’]/gu, (q) => (q === '‘' ? '’' : '‘'));
  if (!quoteProblem(turned)) return turned;
  return isTitle
    ? s
        .replace(/[“”‘’]/gu, '')
        .replace(/\s+/gu, ' ')
        .trim()
    : undefined;
}

/** Of each group of entries that are one poem (findSamePoems), the index of the one to keep. */
function samePoemKeepers(list) {
  const group = list.map((_, i) => i);
  const root = (i) => (group[i] === i ? i : (group[i] = root(group[i])));
  for (const [a, b] of findSamePoems(list)) group[root(b)] = root(a);
  const members = new Map();
  for (const i of list.keys()) members.set(root(i), [...(members.get(root(i)) ?? []), i]);
  const drop = new Set();
  for (const ids of members.values()) {
    if (ids.length < 2) continue;
    const oneAuthor = new Set(ids.map((i) => list[i].author)).size === 1;
    const rank = (i) => [preferred(list[i]) ? 0 : 1, oneAuthor && YUEFU_PREFIX.test(list[i].title) ? 1 : 0, i];
    const byRank = [...ids].sort((x, y) => {
      const [rx, ry] = [rank(x), rank(y)];
      return rx[0] - ry[0] || rx[1] - ry[1] || rx[2] - ry[2];
    });
    for (const i of byRank.slice(1)) drop.add(i);
  }
  return drop;
}

const unbracket = (s) => s.replace(/\[([^\]]*)\]/gu, (_, inner) => (NUMERAL.test(inner) ? '' : inner));

function cleanAuthor(author) {
  if (author === '敦煌人作品[一]') return '无名氏';
  if (author === '南唐嗣主李璟') return '李璟';
  return author.replace(/\d+$/u, '');
}

export function cleanPoems(list) {
  const out = [];
  const seen = new Map();
  for (const p of list) {
    const title = fixQuotes(unbracket(p.title).trim(), true);
    const author = cleanAuthor(p.author.trim());
    const lines = p.lines.map((l) => fixQuotes(unbracket(l).trim(), false)).filter((l) => l !== '');
    if (!title || lines.length === 0 || !lines.every((l) => l !== undefined && HAN.test(l))) continue;
    if (
      lines.some((l) => APPARATUS.test(l) || l.includes('囗')) ||
      /[□{}[\]\s\d]/u.test(author) ||
      APPARATUS.test(title.replace(/[（）()]/gu, '')) ||
      lostCharacterLine(lines) !== undefined
    )
      continue;
    const dynasty = FIVE_DYNASTIES.has(author) ? '五代' : p.dynasty;
    const featured = p.featured && lines.some((l) => l.includes(p.featured)) ? p.featured : lines[0];
    const entry = { ...(p.id ? { id: p.id } : {}), title, author, dynasty, lines, featured };
    // The same verse twice (variant characters aside): the first entry, unless the later one is the standard
    // attribution (杜牧《赤壁》 鏁/锁 in 李商隐's copy).
    const key = normaliseText(lines.join(''));
    const earlier = seen.get(key);
    if (earlier === undefined) {
      seen.set(key, out.length);
      out.push(entry);
    } else if (preferred(entry) && !preferred(out[earlier])) out[earlier] = entry;
  }
  const drop = samePoemKeepers(out);
  const kept = out.filter((_, i) => !drop.has(i));
  const ids = new Set(kept.map((p) => p.id).filter(Boolean));
  return kept.map((p) => {
    let id = p.id;
    if (!id) {
      id = stablePoemId(p);
      if (ids.has(id)) throw new Error(`two poems share the id ${id}: ${p.author}《${p.title}》`);
      ids.add(id);
    }
    const lines = p.lines.map(standardChars);
    const featured = standardChars(p.featured);
    return { id, ...p, title: standardChars(p.title), lines, featured };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = new URL('../data/content/poems.json', import.meta.url);
  const before = JSON.parse(fs.readFileSync(file, 'utf8'));
  const after = cleanPoems(before);
  fs.writeFileSync(file, JSON.stringify(after));
  console.log(`poems: ${before.length} → ${after.length}`);
}
