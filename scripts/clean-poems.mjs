#!/usr/bin/env node
// Cleans data/content/poems.json in place (idempotent); build-poems.mjs runs the same cleaning on a fresh extract.
//   node scripts/clean-poems.mjs
// What it does, and why (packages/server/src/content/content-lint.test.ts checks the result):
// - `[妆]` marks a character the editors restored: kept, brackets dropped; `[二八]` is a footnote number: dropped.
// - A poem whose lines still carry collation apparatus (（一作「美」）, （见《类说》…）, 〖1〗) is dropped: the notes are
//   interleaved with the verse and cannot be removed reliably.
// - Entries without a title or without a line of verse (title "", lines ["。"]) are dropped, as are poems whose
//   author is unknown or garbled (杨□, □州司马, 史{隽乃=冏}之, 芙蓉古丈夫　毛女).
// - A digit the collection appends to tell two namesakes apart (王炎2) is dropped from the name; 敦煌人作品[一] is 无名氏.
// - Poets of the Five Dynasties that 全唐诗 includes (李煜, 和凝, …) are labelled 五代.
// - Duplicates (the same verse, punctuation aside) keep the first entry (唐诗三百首 comes first).
// - `featured` falls back to the first line when it is no longer one of the lines.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

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
const normalise = (s) => s.normalize('NFKC').replace(/[\p{P}\p{S}\s]/gu, '');

const unbracket = (s) => s.replace(/\[([^\]]*)\]/gu, (_, inner) => (NUMERAL.test(inner) ? '' : inner));

function cleanAuthor(author) {
  if (author === '敦煌人作品[一]') return '无名氏';
  if (author === '南唐嗣主李璟') return '李璟';
  return author.replace(/\d+$/u, '');
}

export function cleanPoems(list) {
  const out = [];
  const seen = new Set();
  for (const p of list) {
    const title = unbracket(p.title).trim();
    const author = cleanAuthor(p.author.trim());
    const lines = p.lines.map((l) => unbracket(l).trim()).filter((l) => l !== '');
    if (!title || lines.length === 0 || !lines.every((l) => HAN.test(l))) continue;
    if (
      lines.some((l) => APPARATUS.test(l)) ||
      /[□{}[\]\s\d]/u.test(author) ||
      APPARATUS.test(title.replace(/[（）()]/gu, ''))
    )
      continue;
    const key = normalise(lines.join(''));
    if (seen.has(key)) continue;
    seen.add(key);
    const dynasty = FIVE_DYNASTIES.has(author) ? '五代' : p.dynasty;
    const featured = p.featured && lines.some((l) => l.includes(p.featured)) ? p.featured : lines[0];
    out.push({ ...(p.id ? { id: p.id } : {}), title, author, dynasty, lines, featured });
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = new URL('../data/content/poems.json', import.meta.url);
  const before = JSON.parse(fs.readFileSync(file, 'utf8'));
  const after = cleanPoems(before);
  fs.writeFileSync(file, JSON.stringify(after));
  console.log(`poems: ${before.length} → ${after.length}`);
}
