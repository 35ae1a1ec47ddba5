import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { lookupRoute } from '../../platform/lookup-platform.js';
import { todayInShanghai } from '../../../shared/shanghai-day.js';
import { MAX_YEAR, MIN_YEAR, solarTermsOfYear } from '../../../engines/calendar/solar-terms.js';

const SolarTermSchema = Type.Object(
  {
    name: Type.String({ description: 'Solar term name', examples: ['立春'] }),
    date: Type.String({
      pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$',
      description:
        'The moment the Sun’s apparent longitude reaches the term’s multiple of 15°, Beijing time, YYYY-MM-DD HH:MM:SS',
      examples: ['2026-02-04 04:01:55'],
    }),
  },
  { additionalProperties: false },
);

export default async function solarTermRoute(app: FastifyInstance) {
  lookupRoute(app, {
    path: '/solar-term',
    zh: '二十四节气：某公历年 24 个节气的交节时刻（北京时间，精确到秒）。',
    summary: '二十四节气 The 24 solar terms',
    description:
      'The 24 solar terms whose moment falls in Gregorian year `year` (Beijing time), 小寒 … 冬至, in chronological order; ' +
      'moments are astronomical (apparent solar longitude, computed offline), to the second. ' +
      '`year` defaults to the current year in Asia/Shanghai; range 1900 to 2100.',
    query: Type.Object({
      year: Type.Optional(
        Type.Integer({
          minimum: MIN_YEAR,
          maximum: MAX_YEAR,
          'x-hint': `四位年份，范围 ${MIN_YEAR} 至 ${MAX_YEAR}`,
          description: `Gregorian year, ${MIN_YEAR} … ${MAX_YEAR} (default the current year in Asia/Shanghai)`,
          examples: [2026],
        }),
      ),
    }),
    data: Type.Array(SolarTermSchema, { minItems: 24, maxItems: 24 }),
    cache: { maxAge: 3600, vary: (q) => (q.year === undefined ? todayInShanghai().slice(0, 4) : '') },
    handler: (q) => solarTermsOfYear(q.year ?? Number(todayInShanghai().slice(0, 4))),
  });
}
