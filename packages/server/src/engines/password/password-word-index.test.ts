import { describe, expect, it } from 'vitest';
import { buildWordIndex, hasWord, nodeOf, type WordIndex } from './password-word-index.js';

const ranked = (words: string[]) => Object.fromEntries(words.map((w, k) => [w, k + 1]));

/** The (dictionary name, rank) pairs of `word`, in dictionary order. */
function hitsOf(idx: WordIndex, word: string): Array<[string, number]> {
  const node = nodeOf(idx, word);
  if (node < 0) return [];
  const out: Array<[string, number]> = [];
  for (let h = idx.hitStart[node]; h < idx.hitStart[node + 1]; h++)
    out.push([idx.names[idx.hitDictionary[h]], idx.hitRank[h]]);
  return out;
}

describe('the compiled dictionary trie', () => {
  // Many children under one node (the root and 'a'), so that the binary search among children runs, digits that
  // JavaScript orders first among object keys, a word in two dictionaries, words that are prefixes of others.
  const letters = 'zyxwvutsrqponmlkjihgfedcba'.split('');
  const first = ranked(['password', '123456', 'pass', ...letters.map((c) => `a${c}`), '666666', 'dragon']);
  const second = ranked(['dragon', 'pa', '196', 'ab', 'ünïcode', 'Straße']);
  const idx = buildWordIndex(['first', 'second'], [first, second], { first: 8, second: 7 });

  it('finds every word of every dictionary with its rank, dictionary by dictionary', () => {
    for (const [name, dict] of [
      ['first', first],
      ['second', second],
    ] as const)
      for (const [word, rank] of Object.entries(dict)) expect(hitsOf(idx, word)).toContainEqual([name, rank]);
    expect(hitsOf(idx, 'dragon')).toEqual([
      ['first', first.dragon],
      ['second', second.dragon],
    ]);
    expect(hitsOf(idx, 'ab')).toEqual([
      ['first', first.ab],
      ['second', second.ab],
    ]);
  });

  it('finds nothing else: prefixes, extensions and strangers are not words', () => {
    for (const word of ['p', 'passw', 'passwords', '12345', '1234567', 'a', 'dragons', 'x', '', 'constructor'])
      expect(hasWord(idx, word)).toBe(false);
    expect(nodeOf(idx, 'passw')).toBeGreaterThan(0);
    expect(nodeOf(idx, 'qq')).toBe(-1);
  });

  it('leaves out a word longer than its dictionary’s longest word, as zxcvbn’s search window never reaches it', () => {
    const idx2 = buildWordIndex(['d'], [ranked(['short', 'muchlonger'])], { d: 5 });
    expect(hasWord(idx2, 'short')).toBe(true);
    expect(hasWord(idx2, 'muchlonger')).toBe(false);
  });
});
