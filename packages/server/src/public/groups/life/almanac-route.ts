import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { lookupRoute } from '../../platform/lookup-platform.js';
import { todayInShanghai } from '../../../shared/shanghai-day.js';
import { resolveDate } from '../../shared/daily-query.js';
import { computeAlmanac } from './almanac.js';

const AlmanacEntrySchema = Type.Object(
  {
    date: Type.String({
      pattern: '^\\d{4}-\\d{1,2}-\\d{1,2}$',
      description: 'The almanac day every entry belongs to, Y-M-D without zero padding (the requested date)',
      examples: ['2026-11-21'],
    }),
    hours: Type.String({
      pattern: '^\\d{2}:\\d{2}-\\d{2}:\\d{2}$',
      description: 'The two-hour window, HH:MM-HH:MM',
      examples: ['23:00-00:59'],
    }),
    hour: Type.String({ description: 'The double hour, 子时 … 亥时', examples: ['子时'] }),
    yi: Type.String({
      description: 'Suitable activities, space-separated; 无 when none',
      examples: ['作灶 祭祀 祈福 斋醮 酬神'],
    }),
    ji: Type.String({ description: 'Activities to avoid, space-separated; 无 when none', examples: ['修造 动土'] }),
    chong: Type.String({ description: 'The clash: (clashing stem-branch) zodiac animal', examples: ['(戊午)马'] }),
    sha: Type.String({ description: 'Direction of the 煞', examples: ['南'] }),
    nayin: Type.String({ description: '纳音 of the hour’s stem-branch', examples: ['海中金'] }),
    jiuxing: Type.String({
      description: 'The hour’s flying star (紫白九星): number, colour, element, Big Dipper name',
      examples: ['三碧木天玑'],
    }),
  },
  { additionalProperties: false },
);

export default async function almanacRoute(app: FastifyInstance) {
  lookupRoute(app, {
    path: '/almanac',
    zh: '时辰宜忌：某日十二时辰的宜、忌、冲煞、纳音和九星。',
    summary: '时辰宜忌 Double-hour almanac',
    description:
      'The twelve double hours of one day with what each suits and should avoid, its clash, 煞 direction, 纳音 and flying star, computed offline with lunar-javascript. ' +
      'Exactly 12 entries in the order 23:00-00:59 (子时), 01:00-02:59 (丑时), … 21:00-22:59 (亥时). ' +
      'The almanac day starts at 23:00 the evening before: the 子时 entry is the one that belongs to `date` and covers 23:00 of the previous calendar day to 00:59 of `date`; ' +
      'the 23:00-23:59 hour at the end of `date` is the next day’s 子时. Every entry’s `date` field is therefore the requested day (written Y-M-D without zero padding). ' +
      '`date` defaults to today in Asia/Shanghai; range 1900-01-01 to 2100-12-31.',
    query: Type.Object({
      date: Type.Optional(
        Type.String({
          pattern: '^\\d{4}-\\d{1,2}-\\d{1,2}$',
          'x-hint': 'YYYY-MM-DD 或不补零的 Y-M-D（如 2026-1-5），范围 1900-01-01 至 2100-12-31',
          description:
            'The day, YYYY-MM-DD or Y-M-D without zero padding (as the entries’ own `date`), 1900-01-01 … 2100-12-31 (default today in Asia/Shanghai)',
          examples: ['2026-11-21'],
        }),
      ),
    }),
    data: Type.Array(AlmanacEntrySchema, { minItems: 12, maxItems: 12 }),
    // The default answer changes at Beijing midnight: keep it apart per day, and let clients keep it an hour at most.
    cache: { maxAge: 3600, vary: (q) => (q.date === undefined ? todayInShanghai() : '') },
    handler: (q) => computeAlmanac(resolveDate(q.date)),
  });
}
