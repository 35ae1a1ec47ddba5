/**
 * China's statutory public holidays (法定节假日) as the State Council's yearly notices schedule them.
 *
 * Pure module: no HTTP framework here. The schedules ship as `data/holidays.json` (see `data/README.md`);
 * `loadHolidaySchedules()` is the one place that knows where they come from, so another source (the
 * database, once content management owns them) can replace it without touching the computation.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { readDataJson } from '../../../data-files.js';
import { paramError } from '../../../errors.js';

const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

/** One block of days off as a notice lists it: `{"name":"春节","start":"2025-01-28","end":"2025-02-04","work":["2025-01-26","2025-02-08"]}`. */
export const HolidayScheduleSchema = Type.Object({
  name: Type.String({ minLength: 1 }),
  start: Day,
  end: Day,
  work: Type.Array(Day),
});
/** Notice year (`"2025"`) → its blocks. A block may start in the previous December (元旦 2023 starts 2022-12-31). */
export const HolidaySchedulesSchema = Type.Record(
  Type.String({ pattern: '^\\d{4}$' }),
  Type.Array(HolidayScheduleSchema),
);

export type HolidaySchedule = Static<typeof HolidayScheduleSchema>;
export type HolidaySchedules = Static<typeof HolidaySchedulesSchema>;

export interface HolidayEntry extends HolidaySchedule {
  /** Whole days from today (Asia/Shanghai) to `start`: 0 on the first day off, negative once it has passed. */
  distance: number;
  /** Days off in the block, weekends included: `end − start + 1`. */
  length: number;
  /** Days off gained beyond ordinary weekends: `length − weekend days inside the block − work.length`. */
  balance: number;
}

/** Reads and checks `data/holidays.json`; a missing or malformed file stops the boot with a message that says so. */
export function loadHolidaySchedules(): HolidaySchedules {
  const data = readDataJson<unknown>('holidays.json');
  if (data === undefined) throw new Error('data/holidays.json is missing');
  if (!Value.Check(HolidaySchedulesSchema, data)) {
    const e = Value.Errors(HolidaySchedulesSchema, data).First();
    throw new Error(`data/holidays.json is malformed at ${e?.path ?? '/'}: ${e?.message ?? 'unknown'}`);
  }
  return data;
}

/** Years with a schedule, ascending. */
export function scheduledYears(schedules: HolidaySchedules): number[] {
  return Object.keys(schedules)
    .map(Number)
    .sort((a, b) => a - b);
}

/**
 * The holidays of notice year `year`, chronological, with distance counted from `today` (`YYYY-MM-DD`).
 * A year without a published schedule is an error naming the years there are: never an empty or guessed answer.
 *
 * @example holidaysOfYear(s, 2025, '2025-01-20')[1] // { name: '春节', start: '2025-01-28', …, distance: 8, length: 8, balance: 4 }
 */
export function holidaysOfYear(schedules: HolidaySchedules, year: number, today: string): HolidayEntry[] {
  const blocks = schedules[String(year)];
  if (!blocks) {
    throw paramError(
      'year',
      `${year} 年的放假安排尚未发布（或未收录），可查询 ${describeYears(scheduledYears(schedules))} 年`,
      year,
    );
  }
  return blocks
    .map((b) => {
      const length = daysBetween(b.start, b.end) + 1;
      return {
        name: b.name,
        start: b.start,
        end: b.end,
        distance: daysBetween(today, b.start),
        length,
        balance: length - weekendDays(b.start, length) - b.work.length,
        work: [...b.work],
      };
    })
    .sort((a, b) => a.start.localeCompare(b.start));
}

/** `2004 至 2026`, or `2004 至 2010、2012` when years are missing in between. */
export function describeYears(years: number[]): string {
  if (years.length === 0) return '（无）';
  const runs: string[] = [];
  let from = years[0];
  for (let i = 1; i <= years.length; i++) {
    if (years[i] !== years[i - 1] + 1) {
      runs.push(from === years[i - 1] ? String(from) : `${from} 至 ${years[i - 1]}`);
      from = years[i];
    }
  }
  return runs.join('、');
}

const DAY_MS = 86_400_000;
const utc = (ymd: string) => Date.UTC(Number(ymd.slice(0, 4)), Number(ymd.slice(5, 7)) - 1, Number(ymd.slice(8, 10)));

/** Whole days from `a` to `b` (both `YYYY-MM-DD`), negative when `b` is earlier. */
export function daysBetween(a: string, b: string): number {
  return Math.round((utc(b) - utc(a)) / DAY_MS);
}

/** Saturdays and Sundays among the `length` days starting at `start`. */
export function weekendDays(start: string, length: number): number {
  const first = utc(start);
  let n = 0;
  for (let i = 0; i < length; i++) {
    const wd = new Date(first + i * DAY_MS).getUTCDay();
    if (wd === 0 || wd === 6) n++;
  }
  return n;
}
