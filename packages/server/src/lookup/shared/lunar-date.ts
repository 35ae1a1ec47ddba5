/**
 * Gregorian → Chinese calendar date, fast enough for bulk generation. lunar-javascript's `Solar.getLunar()` costs
 * about 2 ms (it works out the year's solar terms every time, and keeps only one year cached); this keeps each lunar
 * year's month table (from lunar-javascript, so the two can never disagree) and answers from it in microseconds.
 */
import lunarJs from 'lunar-javascript';

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
  /** First day, `YYYY-MM-DD`. */
  start: string;
  month: number;
}

const years = new Map<number, MonthStart[]>();

function monthsOf(lunarYear: number): MonthStart[] {
  let months = years.get(lunarYear);
  if (!months) {
    months = LunarYear.fromYear(lunarYear)
      .getMonthsInYear()
      .map((m) => ({ start: Solar.fromJulianDay(m.getFirstJulianDay()).toYmd(), month: m.getMonth() }));
    years.set(lunarYear, months); // at most one entry per year asked about: a few hundred in all
  }
  return months;
}

/** `一九八九` for 1989, kept per year (at most one entry per year asked about, like the month tables). */
function yearTextOf(year: number): string {
  let text = yearTexts.get(year);
  if (text === undefined)
    yearTexts.set(year, (text = [...String(year)].map((d) => LunarUtil.NUMBER[Number(d)]).join('')));
  return text;
}
const yearTexts = new Map<number, string>();

const DAY_MS = 86400_000;
const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);

/** The Chinese calendar date of `ymd` (YYYY-MM-DD, years 1…9999 as lunar-javascript supports). */
export function lunarDateOf(ymd: string): LunarDate {
  const y = Number(ymd.slice(0, 4));
  const year = ymd >= monthsOf(y)[0].start ? y : y - 1;
  const months = monthsOf(year);
  let i = months.length - 1;
  while (months[i].start > ymd) i--;
  const { start, month: signed } = months[i];
  const day = daysBetween(start, ymd) + 1;
  const month = Math.abs(signed);
  const yearText = yearTextOf(year);
  return {
    year,
    month,
    leap: signed < 0,
    day,
    zodiac: LunarUtil.SHENGXIAO[((year - 4) % 12) + 1],
    text: `${yearText}年${signed < 0 ? '闰' : ''}${LunarUtil.MONTH[month]}月${LunarUtil.DAY[day]}`,
  };
}
