/**
 * Password strength by @zxcvbn-ts/core v3 with the common and English dictionaries, a dictionary of passwords
 * common among Chinese users (`data/zh-common-passwords.json`) and Chinese feedback.
 *
 * Pure module: no HTTP framework here. zxcvbn is CPU-heavy (milliseconds for an ordinary password, seconds for
 * crafted ones), so the service runs it in worker threads (password-pool.ts), never on the event loop, and callers
 * bound the length (PASSWORD_MAX_LENGTH).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { zxcvbn, zxcvbnOptions, type MatchEstimated, type ZxcvbnResult } from '@zxcvbn-ts/core';
import type { adjacencyGraphs as Graphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import type { dictionary as enDictionary } from '@zxcvbn-ts/language-en';
import { ZH_DICTIONARY } from './password-constants.js';
import { installFastMatchers, installSharedWords, shareCurrentWords } from './password-matchers.js';
import type { SharedWordIndex } from './password-word-index.js';
import { zhCnTranslations } from './password-translations-zh.js';

const require = createRequire(import.meta.url);
// The keyboard graphs on their own: the package's entry loads its word lists with them.
const adjacencyGraphs = require('@zxcvbn-ts/language-common/dist/adjacencyGraphs.json.js') as typeof Graphs;

/** zxcvbn v3's result, with `feedback.warning` always a string ('' when there is nothing to warn about). */
export type PasswordStrength = Omit<ZxcvbnResult, 'feedback'> & {
  feedback: { warning: string; suggestions: string[] };
};

/** The Chinese list, most common first (its position is the zxcvbn rank). */
export function loadZhPasswords(): string[] {
  const url = new URL('../../../../../data/zh-common-passwords.json', import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as string[];
}

/** The word lists zxcvbn ranks (common, English, Chinese), in the order it reports them. */
function wordLists(): Record<string, string[]> {
  const common = require('@zxcvbn-ts/language-common') as { dictionary: typeof commonDictionary };
  const en = require('@zxcvbn-ts/language-en') as { dictionary: typeof enDictionary };
  return { ...common.dictionary, ...en.dictionary, [ZH_DICTIONARY]: loadZhPasswords() };
}

/** How zxcvbn is configured in this thread: its own word lists, or the shared index it was given. */
let configured: 'own' | SharedWordIndex | undefined;

/**
 * Configures zxcvbn, once per thread (zxcvbnOptions is module-global): with the word lists loaded and compiled here,
 * or, given `words` (compiledWords of another thread), with that shared index and no word list of its own. Both
 * score every password identically (password-matchers.test.ts).
 */
export function configureZxcvbn(words?: SharedWordIndex): void {
  if (configured === (words ?? 'own')) return;
  if (words) {
    zxcvbnOptions.setOptions({ graphs: adjacencyGraphs, translations: zhCnTranslations });
    installSharedWords(words);
  } else {
    zxcvbnOptions.setOptions({ dictionary: wordLists(), graphs: adjacencyGraphs, translations: zhCnTranslations });
    // Same results as v3's own matchers, several times faster (password-matchers.ts).
    installFastMatchers();
  }
  configured = words ?? 'own';
}

/** The dictionaries compiled in this thread, in shared memory for other threads' configureZxcvbn. */
export function compiledWords(): SharedWordIndex {
  configureZxcvbn();
  return shareCurrentWords();
}

/** Scores one password (not truncated: callers bound its length). */
export function checkPassword(password: string): PasswordStrength {
  if (!configured) configureZxcvbn();
  const result = zxcvbn(password);
  const warning = result.feedback.warning ?? zhDictionaryWarning(result) ?? '';
  return { ...result, feedback: { warning, suggestions: result.feedback.suggestions } };
}

/**
 * zxcvbn only words a warning for matches in its own `passwords` list; a password found in the Chinese list gets
 * the same warning here (top ten / top hundred / common / similar), by the same rule zxcvbn applies.
 */
function zhDictionaryWarning(result: ZxcvbnResult): string | null {
  const sequence = result.sequence as MatchEstimated[];
  if (result.score > 2 || sequence.length === 0) return null;
  // zxcvbn's feedback is about the first longest match; mirror that choice.
  const longest = sequence.reduce((a, m) => (m.token.length > a.token.length ? m : a));
  if (longest.pattern !== 'dictionary' || longest.dictionaryName !== ZH_DICTIONARY) return null;
  const w = zhCnTranslations.warnings;
  if (sequence.length === 1 && !longest.l33t && !longest.reversed) {
    return longest.rank <= 10 ? w.topTen : longest.rank <= 100 ? w.topHundred : w.common;
  }
  return longest.guessesLog10 <= 4 ? w.similarToCommon : null;
}
