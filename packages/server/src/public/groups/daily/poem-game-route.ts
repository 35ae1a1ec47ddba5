import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { LookupError, paramError, quote } from '../../../errors.js';
import { lookupRoute } from '../../platform/lookup-platform.js';
import { answersPerItem } from '../../../shared/memo.js';
import { pickOne, rngFor } from '../../../shared/rng.js';
import { SeedParam } from '../../shared/schemas.js';
import { lastHanChar, type Verse } from './poem-index.js';
import { poemSource } from './poems.js';

const VerseSchema = Type.Object({
  line: Type.String({ description: 'The verse' }),
  title: Type.String(),
  author: Type.String(),
  dynasty: Type.String(),
  poemId: Type.String(),
});

/**
 * A verse's answer item, made once per verse: the poems are content items of many shapes, so reading their fields on
 * every request went through V8's megamorphic lookups (and migrations of their deprecated maps), and the serializer
 * then read a fresh object per item.
 */
const verseAnswer = answersPerItem((v: Verse) => ({
  line: v.text,
  title: v.poem.title,
  author: v.poem.author,
  dynasty: v.poem.dynasty,
  poemId: v.poem.id,
}));

/** The characters a 飞花令 is classically played with: the keyword when the caller names neither keyword nor after. */
const FEIHUA_KEYWORDS = ['花', '月', '春', '风', '雪', '山', '水', '云', '雨', '酒', '夜', '秋'] as const;

/**
 * Draws up to `count` distinct verses without copying the (possibly thousands of) matches: a partial shuffle of indices.
 * Distinct by text: the same verse stands in more than one poem (and twice in some), and a game that names it twice
 * in one answer reads as a fault.
 */
function draw(verses: readonly Verse[], count: number, seed?: string): Verse[] {
  const rng = rngFor(seed);
  const swapped = new Map<number, number>();
  const out: Verse[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < verses.length && out.length < count; i++) {
    const j = i + rng.int(verses.length - i);
    const verse = verses[swapped.get(j) ?? j];
    swapped.set(j, swapped.get(i) ?? i);
    if (seen.has(verse.text)) continue;
    seen.add(verse.text);
    out.push(verse);
  }
  return out;
}

export default async function poemGameRoute(app: FastifyInstance) {
  const source = poemSource(app);
  lookupRoute(app, {
    path: '/poem-game',
    zh: '诗词游戏：飞花令（keyword，含某字的诗句）或接龙（after，以上一句末字开头的诗句），二者选一。',
    summary: '诗词游戏：飞花令 / 接龙 Poetry word-chain game',
    description:
      '飞花令: `keyword` (1–4 Chinese characters) → verses of classical poetry containing it. 接龙: `after` (a verse) → verses that begin with its last character. ' +
      'Give at most one of the two (both is an error naming them); with neither, a 飞花令 on a classic character (花 月 春 风 雪 山 水 云 雨 酒 夜 秋) drawn at random, or from `seed`. Each answer carries title, author and dynasty; `count` verses are drawn at random (reproducible with `seed`). No match is an error that says so.',
    query: Type.Object({
      keyword: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 4,
          pattern: '^\\p{Script=Han}+$',
          'x-hint': '1–4 个汉字，如 月',
          examples: ['月'],
        }),
      ),
      after: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 50,
          // No example: the reference page fills every parameter with its example, and keyword with after is an error.
          description: 'The previous verse (接龙), e.g. 床前明月光; not together with keyword',
        }),
      ),
      count: Type.Integer({ minimum: 1, maximum: 20, default: 5, description: 'Verses to return (1–20)' }),
      seed: SeedParam,
    }),
    data: Type.Object({
      mode: Type.Union([Type.Literal('feihua'), Type.Literal('jielong')]),
      keyword: Type.String({ description: 'The character(s) matched: the keyword, or the last character of `after`' }),
      total: Type.Integer({ description: 'Matching verses in the library' }),
      items: Type.Array(VerseSchema),
    }),
    handler: (q) => {
      if (q.keyword !== undefined && q.after !== undefined)
        throw paramError(
          'keyword',
          `不能与 after（收到 ${quote(q.after)}）同时给出：飞花令用 keyword，接龙用 after，二者选一`,
          q.keyword,
        );
      const index = source.index();
      let keyword: string;
      let matches: readonly Verse[];
      if (q.after === undefined) {
        keyword = q.keyword ?? pickOne(rngFor(q.seed), FEIHUA_KEYWORDS);
        matches = index.containing(keyword);
        if (!matches.length) throw new LookupError(`飞花令：诗词库中没有包含 "${keyword}" 的诗句，请换一个字`);
      } else {
        const ch = lastHanChar(q.after!);
        if (!ch) throw paramError('after', '应包含至少一个汉字', q.after);
        keyword = ch;
        matches = index.startingWith(ch).filter((v) => v.text !== q.after);
        if (!matches.length) throw new LookupError(`接龙：诗词库中没有以 "${ch}" 开头的诗句`);
      }
      return {
        mode: q.after === undefined ? ('feihua' as const) : ('jielong' as const),
        keyword,
        total: matches.length,
        items: draw(matches, q.count, q.seed).map((v) => verseAnswer(v)),
      };
    },
  });
}
