import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { zxcvbn } from '@zxcvbn-ts/core';
import { afterAll, describe, expect, it } from 'vitest';
import { checkPassword, configureZxcvbn, type PasswordStrength } from './password-strength.js';
import { installFastMatchers, uninstallFastMatchers } from './password-matchers.js';

/**
 * Over a thousand passwords of the kinds people use (the Chinese and zxcvbn common lists, l33t words, keyboard
 * walks, dates, pinyin names with numbers, passphrases, random strings, non-ASCII and edge cases) and, at the end,
 * crafted l33t strings up to 64 characters, the worst case of the l33t matcher (seconds each in v3); one per entry.
 */
const CORPUS = JSON.parse(readFileSync(new URL('./password-corpus.json', import.meta.url), 'utf8')) as string[];

/** Everything but calcTime, which is a stopwatch reading. */
const comparable = ({ calcTime: _, ...rest }: PasswordStrength) => rest;

describe('the fast dictionary matchers', () => {
  afterAll(() => installFastMatchers());

  it('the corpus holds at least 1,000 distinct passwords of every kind', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(1000);
    expect(new Set(CORPUS).size).toBe(CORPUS.length);
    expect(CORPUS.some((p) => [...p].some((c) => c.charCodeAt(0) > 0x7f))).toBe(true);
    expect(CORPUS.some((p) => p.length >= 40)).toBe(true);
  });

  it('give results identical to @zxcvbn-ts/core v3 on every corpus password: score, guesses, every sequence field, feedback', {
    timeout: 600_000,
  }, () => {
    configureZxcvbn();
    uninstallFastMatchers();
    const reference = CORPUS.map((p) => comparable(checkPassword(p)));
    installFastMatchers();
    const differing: string[] = [];
    CORPUS.forEach((p, k) => {
      try {
        const result = comparable(checkPassword(p));
        expect(result).toStrictEqual(reference[k]);
        // Same keys in the same order too: that is what the answer's JSON shows.
        expect(JSON.stringify(result)).toBe(JSON.stringify(reference[k]));
      } catch {
        differing.push(p);
      }
    });
    expect(differing).toEqual([]);
    // The first one in full, so a failure shows what differs.
    if (differing.length)
      expect(comparable(checkPassword(differing[0]))).toStrictEqual(reference[CORPUS.indexOf(differing[0])]);
  });

  it('patch the build of @zxcvbn-ts/core that the service imports (the comparison above is not vacuous)', () => {
    // password-matchers.ts patches the CommonJS build; if the import resolved to another build, nothing would be faster.
    expect(createRequire(import.meta.url)('@zxcvbn-ts/core').zxcvbn).toBe(zxcvbn);
  });
});
