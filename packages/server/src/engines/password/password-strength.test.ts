import { describe, expect, it } from 'vitest';
import { ZH_DICTIONARY } from './password-constants.js';
import { checkPassword, loadZhPasswords } from './password-strength.js';
import { zhCnTranslations } from './password-translations-zh.js';

// The keys zxcvbn-ts v3 puts on a dictionary match (v4 renamed several of them).
const DICTIONARY_KEYS = [
  'pattern',
  'i',
  'j',
  'token',
  'matchedWord',
  'rank',
  'dictionaryName',
  'reversed',
  'l33t',
  'baseGuesses',
  'uppercaseVariations',
  'l33tVariations',
  'guesses',
  'guessesLog10',
];
const CRACK_KEYS = [
  'offlineFastHashing1e10PerSecond',
  'offlineSlowHashing1e4PerSecond',
  'onlineNoThrottling10PerSecond',
  'onlineThrottling100PerHour',
];

describe('the Chinese common-password list', () => {
  const list = loadZhPasswords();

  it('has at least 300 distinct lower-case entries, most common first', () => {
    expect(list.length).toBeGreaterThanOrEqual(300);
    expect(new Set(list).size).toBe(list.length);
    for (const w of list) expect(w, w).toBe(w.toLowerCase());
    expect(list.slice(0, 3)).toEqual(['123456', '123456789', '111111']);
  });

  it('holds the passwords Chinese users are known to pick', () => {
    for (const w of [
      'woaini1314',
      '5201314',
      'qq123456',
      'a123456',
      'iloveyou',
      '1314520',
      '7758521',
      'zhangwei',
      '19491001',
    ]) {
      expect(list, w).toContain(w);
    }
  });
});

describe('checkPassword', () => {
  it('returns the zxcvbn v3 result shape with the four crack-time scenarios', () => {
    const r = checkPassword('Tr0ub4dour&3');
    expect(Object.keys(r).sort()).toEqual([
      'calcTime',
      'crackTimesDisplay',
      'crackTimesSeconds',
      'feedback',
      'guesses',
      'guessesLog10',
      'password',
      'score',
      'sequence',
    ]);
    expect(Object.keys(r.crackTimesSeconds).sort()).toEqual(CRACK_KEYS);
    expect(Object.keys(r.crackTimesDisplay).sort()).toEqual(CRACK_KEYS);
    expect(r.password).toBe('Tr0ub4dour&3');
  });

  it('finds woaini1314 in the Chinese list and says it is a frequently used password', () => {
    const r = checkPassword('woaini1314');
    expect(r.sequence).toHaveLength(1);
    const m = r.sequence[0];
    expect(Object.keys(m).sort()).toEqual([...DICTIONARY_KEYS].sort());
    expect(m).toMatchObject({
      pattern: 'dictionary',
      i: 0,
      j: 9,
      token: 'woaini1314',
      matchedWord: 'woaini1314',
      dictionaryName: ZH_DICTIONARY,
      reversed: false,
      l33t: false,
    });
    expect(r.score).toBe(0);
    expect(r.feedback.warning).toBe(zhCnTranslations.warnings.topHundred);
    expect(r.feedback.suggestions).toContain(zhCnTranslations.suggestions.anotherWord);
  });

  it('ranks the most common Chinese passwords in the top ten', () => {
    expect(checkPassword('5201314').feedback.warning).toBe('这是使用最多的密码之一。');
  });

  it('adds subs and subDisplay to a l33t dictionary match', () => {
    const m = checkPassword('P@ssw0rd').sequence[0];
    expect(Object.keys(m).sort()).toEqual([...DICTIONARY_KEYS, 'subs', 'subDisplay'].sort());
    expect(m).toMatchObject({
      matchedWord: 'password',
      dictionaryName: 'passwords',
      l33t: true,
      subDisplay: '@ -> a, 0 -> o',
    });
  });

  it('words crack times and feedback in Chinese', () => {
    const weak = checkPassword('qwerty2023');
    expect(weak.crackTimesDisplay.offlineFastHashing1e10PerSecond).toBe('不到 1 秒');
    expect(weak.feedback.suggestions.every((s) => /[\u4e00-\u9fff]/.test(s))).toBe(true);
    expect(checkPassword('correct horse battery staple').crackTimesDisplay.onlineThrottling100PerHour).toBe('数百年');
  });

  it('gives a strong password score 4, an empty warning and no suggestions', () => {
    const r = checkPassword('xK#9vLq!zR2@mW7p');
    expect(r.score).toBe(4);
    expect(r.feedback).toEqual({ warning: '', suggestions: [] });
  });

  it('recognises dates and keeps the fields zxcvbn gives other patterns', () => {
    const r = checkPassword('1990-05-12');
    expect(r.sequence[0]).toMatchObject({ pattern: 'date', year: 1990, separator: '-' });
    expect(r.feedback.warning).toBe(zhCnTranslations.warnings.dates);
  });
});
