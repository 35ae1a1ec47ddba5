import { Type } from '@sinclair/typebox';
import { paramError } from '../../errors.js';
import { todayInShanghai } from '../../shared/shanghai-day.js';

/** The query every daily endpoint takes: `date` to ask for another day, `random=true` for a fresh random pick. */
export const DailyQuery = {
  date: Type.Optional(
    Type.String({
      pattern: '^\\d{4}-\\d{2}-\\d{2}$',
      'x-hint': 'YYYY-MM-DD，范围 1900-01-01 至 2100-12-31',
      description: 'The day to ask about (default today, Asia/Shanghai)',
      examples: ['2026-11-21'],
    }),
  ),
  random: Type.Optional(
    Type.Boolean({ description: 'true: a fresh random pick instead of the day’s', default: false }),
  ),
};

/**
 * Validates `date` beyond its pattern (real calendar day, 1900–2100) and defaults it to today in Shanghai. Month and
 * day may come without zero padding (`2026-1-5`, as the almanac writes them) where the route's pattern lets them in;
 * the answer is the padded `YYYY-MM-DD`.
 */
export function resolveDate(given: string | undefined): string {
  if (given === undefined) return todayInShanghai();
  const date = given.replace(/^(\d{4})-(\d{1,2})-(\d{1,2})$/, (_m, y: string, m: string, d: string) =>
    [y, m.padStart(2, '0'), d.padStart(2, '0')].join('-'),
  );
  const d = new Date(`${date}T00:00:00Z`);
  if (
    Number.isNaN(d.getTime()) ||
    d.toISOString().slice(0, 10) !== date ||
    date < '1900-01-01' ||
    date > '2100-12-31'
  ) {
    throw paramError('date', '应为真实日期 YYYY-MM-DD，范围 1900-01-01 至 2100-12-31', given);
  }
  return date;
}
