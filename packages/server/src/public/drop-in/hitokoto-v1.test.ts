import { readFileSync } from 'node:fs';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { HITOKOTO_CATEGORIES, type Sentence, charLength } from '../shared/hitokoto.js';
import { V1Failure, pickV1, readV1Query, v1Number } from './hitokoto-v1.js';

const shipped = JSON.parse(
  readFileSync(new URL('../../../../../data/content/hitokoto.json', import.meta.url), 'utf8'),
) as Sentence[];

const sentence = (type: string, i: number, length = 10): Sentence => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  type,
  content: `${'字'.repeat(length - 1)}。`,
  from: '测试',
  from_who: null,
  creator: 'tianji',
  commit_from: 'tianji',
});

describe('readV1Query reads hitokoto.cn’s query as hitokoto.cn does', () => {
  it('falls back to the defaults instead of failing', () => {
    expect(readV1Query({})).toEqual({
      query: { categories: [], encode: 'json', select: '.hitokoto', minLength: 0, maxLength: 30, charset: 'utf-8' },
    });
    const { query } = readV1Query({ encode: 'XML', min_length: '-3', max_length: '1001', charset: 'big5' });
    expect(query).toMatchObject({ encode: 'json', minLength: 0, maxLength: 30, charset: 'utf-8' });
    // parseInt, as there: 5.9 is 5; a max_length not above min_length is the default 30.
    expect(readV1Query({ min_length: '5.9', max_length: '5' }).query).toMatchObject({ minLength: 5, maxLength: 30 });
    expect(readV1Query({ c: ['a', 'b', 'a'] }).query.categories).toEqual(['a', 'b']);
  });

  it('reads an empty c (`?c=`) as every category and answers a sentence, as hitokoto.cn does', () => {
    expect(readV1Query({ c: '' }).query.categories).toEqual([]);
    expect(readV1Query({ c: ['', 'k', ''] }).query.categories).toEqual(['k']);
    const got = pickV1(shipped, readV1Query({ c: '' }).query);
    expect(got).not.toBeInstanceOf(V1Failure);
  });

  it('fails only where hitokoto.cn does, and on a callback that is not a function name', () => {
    expect(readV1Query({ min_length: '31' }).failure?.message).toBe('`max_length` 不能小于 `min_length`！');
    const bad = readV1Query({ callback: 'x=1;alert', charset: 'gbk' });
    expect(bad.failure?.status).toBe(400);
    // The failure is still answered in the charset asked for, and never as JSONP around the bad name.
    expect(bad.query).toMatchObject({ charset: 'gbk', callback: undefined });
    expect(readV1Query({ callback: 'jQuery3510_1700000000000' }).query.callback).toBe('jQuery3510_1700000000000');
  });
});

describe('pickV1', () => {
  it('makes every sentence in range equally likely: a small category does not repeat every few draws', () => {
    // hitokoto.cn picks the category first, uniformly: the 10 sentences of a would be half of all answers.
    const all = [
      ...Array.from({ length: 10 }, (_, i) => sentence('a', i)),
      ...Array.from({ length: 990 }, (_, i) => sentence('b', 1000 + i)),
    ];
    const query = readV1Query({}).query;
    let a = 0;
    for (let i = 0; i < 2000; i++) {
      const got = pickV1(all, query);
      if (!(got instanceof V1Failure) && got.sentence.type === 'a') a++;
    }
    expect(a).toBeGreaterThan(0);
    expect(a / 2000).toBeLessThan(0.04);
  });

  it('tells a category out of range from a range no sentence fits', () => {
    const all = [sentence('a', 1, 8), sentence('a', 2, 20)];
    const q = (min: string, max: string) => readV1Query({ min_length: min, max_length: max }).query;
    expect(pickV1(all, q('21', '40'))).toEqual(new V1Failure(400, '很抱歉，没有分类有句子符合长度区间。'));
    expect(pickV1(all, q('10', '15'))).toEqual(new V1Failure(400, '很抱歉，没有句子符合长度区间。'));
  });
});

describe('the shipped sentence library', () => {
  const ours = shipped.filter((s) => s.commit_from !== 'chinese-poetry');
  const classics = shipped.filter((s) => s.commit_from === 'chinese-poetry');

  /** Anime, comics, games and film: no openly licensed source, so the library ships them empty (issue 50). */
  const EMPTY = ['a', 'b', 'c', 'h'];

  it('holds at least 5,000 sentences, the 384 written by hand among them, in every category with an open source', () => {
    expect(shipped.length).toBeGreaterThanOrEqual(5000);
    expect(ours).toHaveLength(384);
    for (const letter of EMPTY)
      expect(
        shipped.filter((s) => s.type === letter),
        letter,
      ).toEqual([]);
    for (const letter of Object.keys(HITOKOTO_CATEGORIES).filter((l) => !EMPTY.includes(l)))
      expect(shipped.filter((s) => s.type === letter).length, letter).toBeGreaterThanOrEqual(30);
    // The classics are literature, philosophy and poetry only: anime, games, film… have no open source.
    expect(new Set(classics.map((s) => s.type))).toEqual(new Set(['d', 'i', 'k']));
  });

  it('gives every sentence its own uuid and its own drop-in number', () => {
    expect(new Set(shipped.map((s) => s.id)).size).toBe(shipped.length);
    for (const s of shipped)
      expect(s.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[45][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const numbers = shipped.map((s) => v1Number(s.id));
    expect(new Set(numbers).size).toBe(shipped.length);
    for (const n of numbers) expect(n > 0 && n <= 2 ** 31 - 1).toBe(true);
  });

  it('answers every sentence whole in GBK, with a source and, where the source names one, a speaker', () => {
    for (const s of shipped) {
      expect(iconv.decode(iconv.encode(s.content, 'gbk'), 'gbk'), s.content).toBe(s.content);
      expect(s.from.length).toBeGreaterThan(0);
    }
    for (const s of classics.filter((c) => /^(论语|孟子|诗经|楚辞|幽梦影)/.test(c.from)))
      expect(s.from_who).not.toBeNull();
  });

  it('takes its poetry lines from the shipped poems, under the poem’s author', () => {
    const poems = JSON.parse(
      readFileSync(new URL('../../../../../data/content/poems.json', import.meta.url), 'utf8'),
    ) as Array<{ author: string; lines: string[] }>;
    const lineAuthors = new Map<string, Set<string>>();
    for (const p of poems) for (const l of p.lines) lineAuthors.set(l, (lineAuthors.get(l) ?? new Set()).add(p.author));
    // 诗经 and 楚辞 are verse too (i since issue 50), but not in poems.json.
    const lines = classics.filter((s) => s.type === 'i' && !/^(?:诗经|楚辞)·/.test(s.from));
    expect(lines.length).toBeGreaterThan(2000);
    for (const s of lines) expect(lineAuthors.get(s.content)?.has(s.from_who ?? ''), s.content).toBe(true);
  });

  it('leaves enough sentences within hitokoto.cn’s default 30 characters in every category it fills', () => {
    for (const letter of Object.keys(HITOKOTO_CATEGORIES).filter((l) => !EMPTY.includes(l)))
      expect(shipped.filter((s) => s.type === letter && charLength(s.content) <= 30).length).toBeGreaterThan(20);
  });
});
