/**
 * A faster @zxcvbn-ts/core v3 `mostGuessableMatchSequence` (the search for the least guessable split of a password
 * into matches), with the same result, object for object and key for key (password-matchers.test.ts compares a
 * corpus of over a thousand passwords against the unpatched library, which puts v3's own search back for its
 * reference). Once the matchers were fast (password-matchers.ts), this search was about a quarter of a check. v3
 * estimates a match's guesses again for every sequence length it is tried at, each time copying the match into a
 * new object with the estimate spread in (V8 builds a hidden class for that spread each time), and keeps its tables
 * as objects keyed by sequence length, read back through Object.keys and parseInt. Here each match is estimated
 * once per search (by v3's own estimateGuesses, but for bruteforce matches, most of them, whose estimate is written
 * out), and the tables are arrays indexed by sequence length (an array's indexes come out in the same ascending order
 * as an object's integer keys). The arithmetic is v3's, step for step,
 * so every guess count is the same floating-point number.
 */
import { createRequire } from 'node:module';

interface Match {
  pattern: string;
  token: string;
  i: number;
  j: number;
}

interface EstimatedMatch extends Match {
  guesses: number;
}

interface Analysis {
  password: string;
  guesses: number;
  guessesLog10: number;
  sequence: EstimatedMatch[];
}

type Search = (password: string, matches: Match[], excludeAdditive?: boolean) => Analysis;

const require = createRequire(import.meta.url);
// The CommonJS build, which is what Node loads for @zxcvbn-ts/core (see password-matchers.ts). Both callers of the
// search (zxcvbn itself and the repeat matcher, for a repeat's base) call it through this module object.
const scoring = require('@zxcvbn-ts/core/dist/scoring/index.js') as { mostGuessableMatchSequence: Search };
const estimateGuesses = require('@zxcvbn-ts/core/dist/scoring/estimate.js') as (
  match: Match,
  password: string,
) => EstimatedMatch;
const { factorial, log10 } = require('@zxcvbn-ts/core/dist/scoring/utils.js') as {
  factorial: (n: number) => number;
  log10: (n: number) => number;
};
const { MIN_GUESSES_BEFORE_GROWING_SEQUENCE, MIN_SUBMATCH_GUESSES_SINGLE_CHAR, MIN_SUBMATCH_GUESSES_MULTI_CHAR } =
  require('@zxcvbn-ts/core/dist/data/const.js') as Record<string, number>;
const bruteforceGuesses = require('@zxcvbn-ts/core/dist/matcher/bruteforce/scoring.js') as (match: {
  token: string;
}) => number;

const original = scoring.mostGuessableMatchSequence;

/**
 * v3's makeBruteforceMatch, estimated as v3's estimateGuesses does (its minimum for a part of the password, then
 * `{ ...match, guesses, guessesLog10 }`), written out: bruteforce matches are most of the matches a search estimates
 * (one for every i ≤ j), and the spread was the larger part of their cost.
 */
function bruteforce(password: string, i: number, j: number): EstimatedMatch {
  const token = password.slice(i, +j + 1 || 9e9);
  const minGuesses =
    token.length < password.length
      ? token.length === 1
        ? MIN_SUBMATCH_GUESSES_SINGLE_CHAR
        : MIN_SUBMATCH_GUESSES_MULTI_CHAR
      : 1;
  // v3's bruteforce scoring reads the token alone.
  const guesses = Math.max(bruteforceGuesses({ token }), minGuesses);
  return { pattern: 'bruteforce', token, i, j, guesses, guessesLog10: log10(guesses) } as EstimatedMatch;
}

function mostGuessableMatchSequence(password: string, matches: Match[], excludeAdditive = false): Analysis {
  const n = password.length;
  const byJ: Match[][] = Array.from({ length: n }, () => []);
  for (const match of matches) byJ[match.j].push(match);
  // v3: for deterministic output, each list sorted by i (a stable sort).
  for (const list of byJ) list.sort((m1, m2) => m1.i - m2.i);
  // optimal.m[k][l]: the last match of the best length-l sequence covering the password up to k; pi the product of
  // its guesses; g the metric. Index l is set for all three or for none.
  const optimalM: EstimatedMatch[][] = Array.from({ length: n }, () => []);
  const optimalPi: number[][] = Array.from({ length: n }, () => []);
  const optimalG: number[][] = Array.from({ length: n }, () => []);

  /** v3's update: whether the best length-l sequence ending at this match beats those ending at k so far. */
  const update = (estimatedMatch: EstimatedMatch, sequenceLength: number) => {
    const k = estimatedMatch.j;
    let pi = estimatedMatch.guesses;
    if (sequenceLength > 1) pi *= optimalPi[estimatedMatch.i - 1][sequenceLength - 1];
    let g = factorial(sequenceLength) * pi;
    if (!excludeAdditive) g += MIN_GUESSES_BEFORE_GROWING_SEQUENCE ** (sequenceLength - 1);
    const competing = optimalG[k];
    for (let l = 0; l < competing.length && l <= sequenceLength; l++) {
      if (competing[l] !== undefined && competing[l] <= g) return;
    }
    competing[sequenceLength] = g;
    optimalM[k][sequenceLength] = estimatedMatch;
    optimalPi[k][sequenceLength] = pi;
  };

  for (let k = 0; k < n; k += 1) {
    for (const match of byJ[k]) {
      // Estimated once, not once per sequence length tried (v3 skips it only when no length is tried, and
      // estimating has no effect but its result).
      const estimatedMatch = estimateGuesses(match, password);
      if (match.i > 0) {
        const before = optimalM[match.i - 1];
        // The lengths set before this match's updates: they only write optimal[k], never optimal[i − 1].
        for (let l = 0, end = before.length; l < end; l++) if (before[l] !== undefined) update(estimatedMatch, l + 1);
      } else {
        update(estimatedMatch, 1);
      }
    }
    // v3's bruteforceUpdate: a single bruteforce match over the whole prefix, then each bruteforce match ending at k
    // appended to each sequence ending just before it that does not already end with one.
    update(bruteforce(password, 0, k), 1);
    for (let i = 1; i <= k; i += 1) {
      const before = optimalM[i - 1];
      let match: EstimatedMatch | undefined;
      for (let l = 0, end = before.length; l < end; l++) {
        if (before[l] !== undefined && before[l].pattern !== 'bruteforce')
          update((match ??= bruteforce(password, i, k)), l + 1);
      }
    }
  }

  // v3's unwind: the best final length (the first of the lowest metrics), then the matches backwards.
  const sequence: EstimatedMatch[] = [];
  let k = n - 1;
  let sequenceLength = 0;
  let best = Number.POSITIVE_INFINITY;
  const last = optimalG[k] as number[] | undefined;
  if (last) {
    for (let l = 0; l < last.length; l++) {
      if (last[l] !== undefined && last[l] < best) {
        sequenceLength = l;
        best = last[l];
      }
    }
  }
  while (k >= 0) {
    const match = optimalM[k][sequenceLength];
    sequence.unshift(match);
    k = match.i - 1;
    sequenceLength -= 1;
  }
  // v3's getGuesses: the metric of the final length, read back as the sequence's length.
  const guesses = n === 0 ? 1 : optimalG[n - 1][sequence.length];
  return { password, guesses, guessesLog10: log10(guesses), sequence };
}

/** Puts the faster search in place (idempotent). */
export function installFastScoring(): void {
  scoring.mostGuessableMatchSequence = mostGuessableMatchSequence;
}

/** Puts v3's own search back (the equivalence test scores its reference with it). */
export function uninstallFastScoring(): void {
  scoring.mostGuessableMatchSequence = original;
}
