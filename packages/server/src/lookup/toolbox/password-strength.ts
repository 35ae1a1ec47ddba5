/**
 * Password strength by @zxcvbn-ts/core v3 with the common and English dictionaries, a dictionary of passwords
 * common among Chinese users (`data/zh-common-passwords.json`) and Chinese feedback.
 *
 * Pure module: no HTTP framework here. zxcvbn is CPU-heavy (milliseconds for an ordinary password, seconds for
 * crafted ones), so the service runs it in worker threads (password-pool.ts), never on the event loop, and callers
 * bound the length (PASSWORD_MAX_LENGTH).
 */
import { readFileSync } from 'node:fs';
import { zxcvbn, zxcvbnOptions, type MatchEstimated, type ZxcvbnResult } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { dictionary as enDictionary } from '@zxcvbn-ts/language-en';
import { ZH_DICTIONARY } from './password-constants.js';
import { installFastMatchers } from './password-matchers.js';
import { zhCnTranslations } from './password-translations-zh.js';

/** zxcvbn v3's result, with `feedback.warning` always a string ('' when there is nothing to warn about). */
export type PasswordStrength = Omit<ZxcvbnResult, 'feedback'> & {
  feedback: { warning: string; suggestions: string[] };
};

/** The Chinese list, most common first (its position is the zxcvbn rank). */
export function loadZhPasswords(): string[] {
  const url = new URL('../../../../../data/zh-common-passwords.json', import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as string[];
}

let configured = false;

/** Loads the dictionaries into zxcvbn (once per thread: zxcvbnOptions is module-global). */
export function configureZxcvbn(): void {
  if (configured) return;
  zxcvbnOptions.setOptions({
    dictionary: { ...commonDictionary, ...enDictionary, [ZH_DICTIONARY]: loadZhPasswords() },
    graphs: adjacencyGraphs,
    translations: zhCnTranslations,
  });
  // Same results as v3's own matchers, several times faster (password-matchers.ts).
  installFastMatchers();
  configured = true;
}

/** Scores one password (not truncated: callers bound its length). */
export function checkPassword(password: string): PasswordStrength {
  configureZxcvbn();
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
