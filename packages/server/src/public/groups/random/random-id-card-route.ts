import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { lookupRoute } from '../../platform/lookup-platform.js';
import { todayInShanghai } from '../../../shared/shanghai-day.js';
import { MIN_BIRTH_YEAR, issuingCodes, issuingProvinces, randomIdCard, resolveProvince } from './random-id-card.js';
import { parseGender } from './random-user.js';
import { rngFor } from '../../../shared/rng.js';
import { SeedParam, IdFactsSchema } from '../../shared/schemas.js';

/** One generated number with the facts it encodes (the same as /api/id-card reports for it). */
const RandomIdCardSchema = Type.Object({
  id: Type.String({
    pattern: '^\\d{17}[\\dX]$',
    description: '18-digit number with a correct check digit',
    examples: ['44030519900615002X'],
  }),
  ...IdFactsSchema,
});

export default async function randomIdCardRoute(app: FastifyInstance) {
  const codes = issuingCodes();
  const provinces = issuingProvinces();

  lookupRoute(app, {
    path: '/random-id-card',
    zh: '随机生成能通过全部校验的大陆居民身份证号码，可指定地区、性别和出生年份范围。',
    summary: '随机身份证号 Random ID-card numbers',
    description: [
      'Fictional but valid 18-digit mainland ID numbers, each with the facts it encodes (as /api/id-card reports them):',
      'a current county-level region code (2023 table; the statistical codes of development zones are left out), a real birthday not after today,',
      'a sequence whose parity is the sex (odd 男, even 女) and the ISO 7064 MOD 11-2 check digit. For tests and demos only.',
      '',
      '- `gender`: `male`/`female` or `男`/`女`; omitted = either.',
      `- \`province\`: a provincial-level region by name (\`广东\`, \`广东省\`, \`内蒙古\`) or two-digit code (\`44\`); omitted = any of the ${provinces.length}.`,
      `- \`birthYear\`: ${MIN_BIRTH_YEAR} to the current year; omitted = aged 18–70.`,
      '- `count`: 1–100, default 1. `seed`: the same seed and parameters give the same numbers all calendar year (Asia/Shanghai); without `birthYear`',
      '  their birthdays are drawn so that every holder is 18–70 on every day of that year, and move on with the year on 1 January.',
    ].join('\n'),
    query: Type.Object({
      gender: Type.Optional(
        Type.String({
          maxLength: 10,
          description: 'male, female, 男 or 女',
          examples: ['female'],
          'x-hint': 'male、female、男 或 女',
        }),
      ),
      province: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 20,
          description: 'Province name or two-digit code',
          examples: ['广东'],
        }),
      ),
      birthYear: Type.Optional(
        Type.Integer({
          minimum: MIN_BIRTH_YEAR,
          maximum: 2100,
          description: `Year of birth, ${MIN_BIRTH_YEAR} to this year`,
          examples: [1990],
          'x-hint': `${MIN_BIRTH_YEAR} 至今年之间的整数年份`,
        }),
      ),
      count: Type.Integer({
        minimum: 1,
        maximum: 100,
        default: 1,
        description: 'How many numbers (1–100)',
        examples: [5],
      }),
      seed: SeedParam,
    }),
    data: Type.Array(RandomIdCardSchema),
    handler: (q) => {
      const rng = rngFor(q.seed);
      const today = todayInShanghai();
      const opts = {
        gender: parseGender(q.gender),
        province: q.province === undefined ? undefined : resolveProvince(q.province, provinces),
        birthYear: q.birthYear,
        ageWindow: rng.seeded ? ('year' as const) : ('day' as const),
      };
      return Array.from({ length: q.count }, () => randomIdCard(rng, opts, today, codes));
    },
  });
}
