import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { lookupRoute } from '../../platform/lookup-platform.js';
import {
  PASSWORD_BUDGET_MS,
  PASSWORD_MAX_LENGTH,
  ZH_DICTIONARY,
} from '../../../engines/password/password-constants.js';
import { SHORT_LANE_MAX } from '../../../engines/password/password-pool.js';

const CRACK_SCENARIOS = {
  onlineThrottling100PerHour: 'online attack, throttled to 100 guesses per hour',
  onlineNoThrottling10PerSecond: 'online attack, unthrottled, 10 guesses per second',
  offlineSlowHashing1e4PerSecond: 'offline attack on a slow hash (bcrypt, scrypt, argon2), 10⁴ guesses per second',
  offlineFastHashing1e10PerSecond: 'offline attack on a fast hash, 10¹⁰ guesses per second',
} as const;

const scenarios = <T extends ReturnType<typeof Type.Number> | ReturnType<typeof Type.String>>(of: (d: string) => T) =>
  Type.Object(
    Object.fromEntries(Object.entries(CRACK_SCENARIOS).map(([k, d]) => [k, of(d)])) as Record<
      keyof typeof CRACK_SCENARIOS,
      T
    >,
  );

const DictionaryMatchSchema = Type.Object(
  {
    pattern: Type.Literal('dictionary'),
    i: Type.Integer({ description: 'Index of the first character of the match in the password' }),
    j: Type.Integer({ description: 'Index of the last character of the match' }),
    token: Type.String({ description: 'The matched part of the password, as typed', examples: ['woaini1314'] }),
    matchedWord: Type.String({
      description: 'The dictionary word it matched (lower case, l33t undone)',
      examples: ['woaini1314'],
    }),
    rank: Type.Integer({
      minimum: 1,
      description: 'Position of the word in its dictionary (1 = most common)',
      examples: [14],
    }),
    dictionaryName: Type.String({
      description: `passwords, commonWords, firstnames, lastnames, wikipedia, diceware, or ${ZH_DICTIONARY} (passwords common among Chinese users)`,
      examples: [ZH_DICTIONARY],
    }),
    reversed: Type.Boolean({ description: 'The word appears reversed' }),
    l33t: Type.Boolean({ description: 'The word appears with l33t substitutions (@ for a, 0 for o, …)' }),
    baseGuesses: Type.Number(),
    uppercaseVariations: Type.Number(),
    l33tVariations: Type.Number(),
    guesses: Type.Number(),
    guessesLog10: Type.Number(),
    subs: Type.Optional(
      Type.Array(Type.Object({ letter: Type.String(), substitution: Type.String() }), {
        description: 'l33t matches only: the substitutions undone',
      }),
    ),
    subDisplay: Type.Optional(Type.String({ description: 'l33t matches only, e.g. "@ -> a, 0 -> o"' })),
  },
  { title: 'DictionaryMatch', additionalProperties: true },
);

// zxcvbn's other patterns (spatial, repeat, sequence, regex, date, bruteforce, separator) carry fields of their own;
// they are passed through as zxcvbn v3 emits them.
const OtherMatchSchema = Type.Object(
  {
    pattern: Type.String({
      description: 'spatial, repeat, sequence, regex, date, bruteforce or separator',
      examples: ['date'],
    }),
    i: Type.Integer(),
    j: Type.Integer(),
    token: Type.String(),
    guesses: Type.Number(),
    guessesLog10: Type.Number(),
  },
  {
    title: 'OtherMatch',
    additionalProperties: true,
    description: 'Further fields depend on the pattern (e.g. date: separator, year, month, day)',
  },
);

const PasswordStrengthSchema = Type.Object({
  calcTime: Type.Number({ description: 'Milliseconds zxcvbn took', examples: [12] }),
  password: Type.String({ description: 'The password that was checked', examples: ['woaini1314'] }),
  guesses: Type.Number({ description: 'Estimated guesses needed to find the password', examples: [15] }),
  guessesLog10: Type.Number({ examples: [1.176] }),
  sequence: Type.Array(Type.Union([DictionaryMatchSchema, OtherMatchSchema]), {
    description: 'The least-guessable split of the password into patterns, in order',
  }),
  crackTimesSeconds: scenarios((d) => Type.Number({ description: `Seconds: ${d}` })),
  crackTimesDisplay: scenarios((d) =>
    Type.String({ description: `In words (Chinese): ${d}`, examples: ['不到 1 秒'] }),
  ),
  score: Type.Integer({
    minimum: 0,
    maximum: 4,
    description:
      '0 too guessable (< 10³ guesses), 1 very guessable (< 10⁶), 2 somewhat guessable (< 10⁸), 3 safely unguessable (< 10¹⁰), 4 very unguessable',
    examples: [0],
  }),
  feedback: Type.Object({
    warning: Type.String({
      description: 'What makes the password weak, in Chinese; empty string when nothing',
      examples: ['这是被频繁使用的密码。'],
    }),
    suggestions: Type.Array(Type.String(), {
      description: 'How to make it stronger, in Chinese',
      examples: [['再加入一些不常见的词语。']],
    }),
  }),
});

export default async function passwordStrengthRoute(app: FastifyInstance) {
  const pool = app.passwordPool;

  lookupRoute(app, {
    path: '/password-strength',
    zh: '检测密码强度：评分、预计破解时间和中文改进建议；请求不记日志、不缓存。',
    summary: '密码强度检测 Password strength',
    description: [
      'The @zxcvbn-ts/core v3 result for `password`: estimated guesses, crack times under four attack scenarios, a score from 0 to 4 and feedback.',
      `Dictionaries: zxcvbn's common passwords and English words, names and Wikipedia terms, plus \`${ZH_DICTIONARY}\`: passwords common among Chinese users (pinyin words and names, 5201314, woaini1314, qq123456, …; data/zh-common-passwords.json).`,
      'Feedback and the crack-time wording are in Chinese. `feedback.warning` is an empty string when there is nothing to warn about.',
      '',
      `- \`password\`: required, 1–${PASSWORD_MAX_LENGTH} characters (zxcvbn's cost grows steeply with length on crafted inputs; longer passwords are strong anyway).`,
      `- Each check has a ${PASSWORD_BUDGET_MS / 1000} s budget by default (\`PASSWORD_BUDGET_MS\`); a check that cannot finish in time (a pathological input, or a busy server) is a 500 that says so.`,
      `- Passwords over ${SHORT_LANE_MAX} characters are checked on a separate worker thread, so slow inputs never hold up ordinary ones.`,
      '- The password is not logged and the answer carries `Cache-Control: no-store`. Only weak results (score 0–1, found within a million guesses) are remembered in memory to answer repeats quickly; stronger passwords are not kept. Prefer calling this from your own server over sending real passwords from a browser.',
    ].join('\n'),
    query: Type.Object({
      password: Type.String({
        minLength: 1,
        maxLength: PASSWORD_MAX_LENGTH,
        description: `The password to check, 1–${PASSWORD_MAX_LENGTH} characters`,
        examples: ['woaini1314'],
        'x-hint': `1 至 ${PASSWORD_MAX_LENGTH} 个字符的密码`,
      }),
    }),
    data: PasswordStrengthSchema,
    sensitiveQuery: true,
    // zxcvbn's typings say MatchExtended; at run time every element also carries its guess estimate (MatchEstimated).
    handler: (q) => pool.check(q.password) as Promise<Static<typeof PasswordStrengthSchema>>,
  });
}
