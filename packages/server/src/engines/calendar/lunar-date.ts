/**
 * Gregorian → Chinese calendar date, fast enough for bulk generation. lunar-javascript's `Solar.getLunar()` costs
 * about 2 ms (it works out the year's solar terms every time, and keeps only one year cached); this keeps each lunar
 * year's month table (from lunar-javascript, so the two can never disagree) and answers from it in microseconds.
 */
import lunarJs from 'lunar-javascript';
import { dayOfYmd } from './civil-date.js';

const { LunarYear, LunarUtil, Solar } = lunarJs;

export interface LunarDate {
  /** The lunar year (it begins at the Spring Festival). */
  year: number;
  /** 1…12. */
  month: number;
  leap: boolean;
  day: number;
  /** 生肖 of the lunar year. */
  zodiac: string;
  /** As lunar-javascript writes it: `一九八九年腊月三十`, `二〇二三年闰二月初四`. */
  text: string;
}

interface MonthStart {
  /** First day, as a day number (civil-date.ts). */
  first: number;
  month: number;
}

/** A lunar year's months, and its number as the date text writes it (`一九八九`). */
interface LunarYearTable {
  months: MonthStart[];
  text: string;
}

const years = new Map<number, LunarYearTable>();

function yearOf(lunarYear: number): LunarYearTable {
  let table = years.get(lunarYear);
  if (!table) {
    table = {
      months: LunarYear.fromYear(lunarYear)
        .getMonthsInYear()
        .map((m) => ({ first: dayOfYmd(Solar.fromJulianDay(m.getFirstJulianDay()).toYmd()), month: m.getMonth() })),
      text: [...String(lunarYear)].map((d) => LunarUtil.NUMBER[Number(d)]).join(''),
    };
    years.set(lunarYear, table); // at most one entry per year asked about: a few hundred in all
  }
  return table;
}

/** The Chinese calendar date of `ymd` (YYYY-MM-DD, years 1…9999 as lunar-javascript supports). */
export function lunarDateOf(ymd: string): LunarDate {
  return lunarDateOfDay(Number(ymd.slice(0, 4)), dayOfYmd(ymd));
}

/** The same for the date of Gregorian year `y` whose day number (civil-date.ts) is `day`: no text to parse. */
export function lunarDateOfDay(y: number, day: number): LunarDate {
  const year = day >= yearOf(y).months[0].first ? y : y - 1;
  const { months, text: yearText } = yearOf(year);
  let i = months.length - 1;
  while (months[i].first > day) i--;
  const { first, month: signed } = months[i];
  const dayOfMonth = day - first + 1;
  const month = Math.abs(signed);
  return {
    year,
    month,
    leap: signed < 0,
    day: dayOfMonth,
    zodiac: LunarUtil.SHENGXIAO[((year - 4) % 12) + 1],
    text: `${yearText}年${signed < 0 ? '闰' : ''}${LunarUtil.MONTH[month]}月${LunarUtil.DAY[dayOfMonth]}`,
  };
}
