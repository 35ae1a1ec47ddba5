import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';
import { zxcvbn, zxcvbnOptions } from '@zxcvbn-ts/core';
import { afterAll, describe, expect, it } from 'vitest';
import { checkPassword, compiledWords, configureZxcvbn, type PasswordStrength } from './password-strength.js';
import { cleanPasswords, installFastMatchers, uninstallFastMatchers } from './password-matchers.js';

/**
 * Over a thousand passwords of the kinds people use (the Chinese and zxcvbn common lists, l33t words, keyboard
 * walks, dates, pinyin names with numbers, passphrases, random strings, non-ASCII and edge cases) and, at the end,
 * crafted l33t strings up to 64 characters, the worst case of the l33t matcher (seconds each in v3); one per entry.
 */
const CORPUS = JSON.parse(readFileSync(new URL('./password-corpus.json', import.meta.url), 'utf8')) as string[];

/** Everything but calcTime, which is a stopwatch reading. */
const comparable = ({ calcTime: _, ...rest }: PasswordStrength) => rest;

let reference: Array<ReturnType<typeof comparable>> | undefined;

/** v3's own results on the corpus: its own matchers over its own ranked word lists. */
function referenceResults(): Array<ReturnType<typeof comparable>> {
  if (!reference) {
    configureZxcvbn();
    uninstallFastMatchers();
    reference = CORPUS.map((p) => comparable(checkPassword(p)));
    installFastMatchers();
  }
  return reference;
}

/** The corpus passwords whose result (calcTime aside) differs from v3's, in value or in key order. */
function differingFromReference(): string[] {
  const expected = referenceResults();
  return CORPUS.filter((p, k) => {
    const result = comparable(checkPassword(p));
    // Same keys in the same order too: that is what the answer's JSON shows.
    return !isDeepStrictEqual(result, expected[k]) || JSON.stringify(result) !== JSON.stringify(expected[k]);
  });
}

describe('the fast dictionary matchers', () => {
  afterAll(() => configureZxcvbn());

  it('the corpus holds at least 1,000 distinct passwords of every kind', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(1000);
    expect(new Set(CORPUS).size).toBe(CORPUS.length);
    expect(CORPUS.some((p) => [...p].some((c) => c.charCodeAt(0) > 0x7f))).toBe(true);
    expect(CORPUS.some((p) => p.length >= 40)).toBe(true);
  });

  it('give results identical to @zxcvbn-ts/core v3 on every corpus password: score, guesses, every sequence field, feedback', {
    timeout: 600_000,
  }, () => {
    const expected = referenceResults();
    configureZxcvbn();
    const differing = differingFromReference();
    expect(differing).toEqual([]);
    // The first one in full, so a failure shows what differs.
    if (differing.length)
      expect(comparable(checkPassword(differing[0]))).toStrictEqual(expected[CORPUS.indexOf(differing[0])]);
  });

  it('give the same results with no word list of their own, over the trie another thread compiled and shared (as the password pool’s threads score)', {
    timeout: 600_000,
  }, () => {
    const expected = referenceResults();
    const words = compiledWords();
    expect(words.firstChild.buffer).toBeInstanceOf(SharedArrayBuffer);
    const own = zxcvbnOptions.rankedDictionaries as Record<string, Record<string, number>>;
    configureZxcvbn(words);
    // zxcvbn holds views of the shared trie, not objects of its own with every word as a key.
    const ranked = zxcvbnOptions.rankedDictionaries as Record<string, Record<string, number>>;
    expect(Object.keys(ranked)).toEqual(words.names);
    expect(Object.keys(ranked.passwords)).toEqual([]);
    // They answer `in` and a read as v3's plain objects do, Object.prototype's members included (v3's own matcher
    // still runs on a substring that names one).
    for (const name of words.names)
      for (const key of ['password', 'zhang', 'constructor', '__proto__', 'toString', 'hasOwnProperty', 'qqxqqz']) {
        expect(key in ranked[name], `${key} in ${name}`).toBe(key in own[name]);
        expect(ranked[name][key], `${name}[${key}]`).toBe(own[name][key]);
      }
    const differing = differingFromReference();
    expect(differing).toEqual([]);
    if (differing.length)
      expect(comparable(checkPassword(differing[0]))).toStrictEqual(expected[CORPUS.indexOf(differing[0])]);
  });

  it('list the same l33t variants as v3, with the same changes and in the same order, on every corpus password', () => {
    configureZxcvbn();
    const require = createRequire(import.meta.url);
    const v3 = require('@zxcvbn-ts/core/dist/matcher/dictionary/variants/matching/unmunger/getCleanPasswords.js') as (
      password: string,
      limit: number,
      trieRoot: unknown,
    ) => unknown[];
    const { l33tMaxSubstitutions: limit, trieNodeRoot } = zxcvbnOptions as unknown as {
      l33tMaxSubstitutions: number;
      trieNodeRoot: Parameters<typeof cleanPasswords>[2];
    };
    const differing = CORPUS.filter(
      (p) => !isDeepStrictEqual(cleanPasswords(p, limit, trieNodeRoot), v3(p, limit, trieNodeRoot)),
    );
    expect(differing).toEqual([]);
    // Not vacuous: the corpus has passwords with many variants, up to the limit.
    expect(Math.max(...CORPUS.map((p) => cleanPasswords(p, limit, trieNodeRoot).length))).toBe(limit);
  });

  it('patch the build of @zxcvbn-ts/core that the service imports (the comparison above is not vacuous)', () => {
    // password-matchers.ts patches the CommonJS build; if the import resolved to another build, nothing would be faster.
    const require = createRequire(import.meta.url);
    expect(require('@zxcvbn-ts/core').zxcvbn).toBe(zxcvbn);
    // zxcvbn searches for the least guessable split through the faster search password-scoring.ts installs.
    const scoring = require('@zxcvbn-ts/core/dist/scoring/index.js') as {
      mostGuessableMatchSequence: (...args: unknown[]) => unknown;
    };
    configureZxcvbn();
    uninstallFastMatchers();
    const v3Search = scoring.mostGuessableMatchSequence;
    installFastMatchers();
    const installed = scoring.mostGuessableMatchSequence;
    expect(installed).not.toBe(v3Search);
    let calls = 0;
    scoring.mostGuessableMatchSequence = (...args) => {
      calls++;
      return installed(...args);
    };
    try {
      checkPassword('Tr0ub4dour&3');
    } finally {
      scoring.mostGuessableMatchSequence = installed;
    }
    expect(calls).toBeGreaterThan(0);
  });
});
