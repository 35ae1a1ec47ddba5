import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { lookupRoute } from '../../platform/lookup-platform.js';
import { todayInShanghai } from '../../../shared/shanghai-day.js';
import { holidaysOfYear, type HolidaySchedules } from './holidays.js';

const Day = (description: string, example: string) =>
  Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description, examples: [example] });

const HolidayEntrySchema = Type.Object(
  {
    name: Type.String({
      description: 'The holiday as the notice names it; a combined block names both (国庆节、中秋节)',
      examples: ['春节'],
    }),
    start: Day('First day off, YYYY-MM-DD (元旦 may start in the previous December)', '2025-01-28'),
    end: Day('Last day off, YYYY-MM-DD', '2025-02-04'),
    distance: Type.Integer({
      description:
        'Whole days from today (Asia/Shanghai) to start: 0 on the first day off, negative once start has passed',
      examples: [8],
    }),
    length: Type.Integer({
      minimum: 1,
      description: 'Days off in the block, weekends included (end − start + 1)',
      examples: [8],
    }),
    balance: Type.Integer({
      description: 'Days off gained beyond ordinary weekends: length − weekend days inside the block − work.length',
      examples: [4],
    }),
    work: Type.Array(Day('Make-up working day', '2025-01-26'), {
      description: 'Make-up working days (调休上班), possibly empty',
      examples: [['2025-01-26', '2025-02-08']],
    }),
  },
  { additionalProperties: false },
);

export default async function holidayRoute(app: FastifyInstance) {
  // Schedules come from the content library (seeded from data/holidays.json, editable in the admin app):
  // one item per year, { year, holidays: [...] }.
  const schedules = (): HolidaySchedules =>
    Object.fromEntries(app.content.items('holidays').map((i) => [String(i.year), i.holidays]));
  lookupRoute(app, {
    path: '/holiday',
    zh: '法定节假日：某年国务院公布的放假安排与调休上班日，及距今天数。',
    summary: '法定节假日 Statutory holidays',
    description:
      'The statutory holidays of one year as the State Council’s notice for that year schedules them (元旦, 春节, 清明节, 劳动节, 端午节, 中秋节, 国庆节; ' +
      'a block that joins two festivals is one entry, e.g. 国庆节、中秋节), in chronological order. ' +
      '`distance` = whole days from today in Asia/Shanghai to `start` (0 on the first day off, negative once `start` is past). ' +
      '`start`…`end` = the days the notice gives; a weekend day is part of the block only where the notice’s range holds it or it says 与周末连休 (2015 中秋节 is 09-27 only). ' +
      '`length` = days off in the block, weekends included. ' +
      '`balance` = days off gained beyond ordinary weekends = `length` − weekend days inside the block − `work.length` (e.g. 2025 春节: 8 − 2 − 2 = 4). ' +
      '`work` = the make-up working days. A year whose schedule has not been published (or is not in the data) is an error naming the years available, never an empty list. ' +
      '`year` defaults to the current year in Asia/Shanghai.',
    query: Type.Object({
      year: Type.Optional(
        Type.Integer({
          minimum: 1900,
          maximum: 2100,
          'x-hint': '四位年份，范围 1900 至 2100（有放假安排的年份）',
          description:
            'The notice year (default the current year in Asia/Shanghai); only years with a published schedule answer',
          examples: [2025],
        }),
      ),
    }),
    data: Type.Array(HolidayEntrySchema),
    // distance changes every day, and an admin may publish a new year: one cached answer per day and library version.
    cache: { maxAge: 3600, vary: () => `${todayInShanghai()}|${app.content.version('holidays')}` },
    handler: (q) => {
      const today = todayInShanghai();
      return holidaysOfYear(schedules(), q.year ?? Number(today.slice(0, 4)), today);
    },
  });
}
