import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { LookupError, paramError } from '../../errors.js';
import { lookupRoute } from '../../plugins/lookup-platform.js';
import { answersPerItem } from '../shared/memo.js';
import { rngFor } from '../shared/rng.js';
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

/** Draws up to `count` distinct verses without copying the (possibly thousands of) matches: a partial shuffle of indices. */
function draw(verses: readonly Verse[], count: number, seed?: string): Verse[] {
  const rng = rngFor(seed);
  const swapped = new Map<number, number>();
  const out: Verse[] = [];
  for (let i = 0; i < Math.min(count, verses.length); i++) {
    const j = i + rng.int(verses.length - i);
    out.push(verses[swapped.get(j) ?? j]);
    swapped.set(j, swapped.get(i) ?? i);
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
      'Give exactly one of the two. Each answer carries title, author and dynasty; `count` verses are drawn at random (reproducible with `seed`). No match is an error that says so.',
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
          description: 'The previous verse (接龙)',
          examples: ['床前明月光'],
        }),
      ),
      count: Type.Integer({ minimum: 1, maximum: 20, default: 5, description: 'Verses to return (1–20)' }),
      seed: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    }),
    data: Type.Object({
      mode: Type.Union([Type.Literal('feihua'), Type.Literal('jielong')]),
      keyword: Type.String({ description: 'The character(s) matched: the keyword, or the last character of `after`' }),
      total: Type.Integer({ description: 'Matching verses in the library' }),
      items: Type.Array(VerseSchema),
    }),
    handler: (q) => {
      if ((q.keyword === undefined) === (q.after === undefined))
        throw paramError('keyword', '请提供 keyword（飞花令）或 after（接龙）其中之一');
      const index = source.index();
      let keyword: string;
      let matches: readonly Verse[];
      if (q.keyword !== undefined) {
        keyword = q.keyword;
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
        mode: q.keyword !== undefined ? ('feihua' as const) : ('jielong' as const),
        keyword,
        total: matches.length,
        items: draw(matches, q.count, q.seed).map((v) => verseAnswer(v)),
      };
    },
  });
}
