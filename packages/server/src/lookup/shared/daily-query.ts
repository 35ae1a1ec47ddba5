import { Type } from '@sinclair/typebox';
import { paramError } from '../../errors.js';
import { todayInShanghai } from '../../plugins/lookup-platform.js';

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

/** Validates `date` beyond its pattern (real calendar day, 1900–2100) and defaults it to today in Shanghai. */
export function resolveDate(date: string | undefined): string {
  if (date === undefined) return todayInShanghai();
  const d = new Date(`${date}T00:00:00Z`);
  if (
    Number.isNaN(d.getTime()) ||
    d.toISOString().slice(0, 10) !== date ||
    date < '1900-01-01' ||
    date > '2100-12-31'
  ) {
    throw paramError('date', '应为真实日期 YYYY-MM-DD，范围 1900-01-01 至 2100-12-31', date);
  }
  return date;
}
