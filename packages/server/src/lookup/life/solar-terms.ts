/**
 * The 24 solar terms (二十四节气) of a Gregorian year, from lunar-javascript's astronomical computation
 * (寿星天文历 algorithms, moments in Beijing time, rounded to the second).
 *
 * Pure module: no HTTP framework here.
 */
import lunarJs from 'lunar-javascript';

const { Lunar } = lunarJs;

export interface SolarTerm {
  /** Chinese name, e.g. `立春`. */
  name: string;
  /** The moment the Sun's apparent longitude reaches the term's multiple of 15°, Beijing time: `YYYY-MM-DD HH:MM:SS`. */
  date: string;
}

/** The terms in the order they fall in a Gregorian year. */
export const SOLAR_TERM_NAMES = [
  '小寒', '大寒', '立春', '雨水', '惊蛰', '春分', '清明', '谷雨', '立夏', '小满', '芒种', '夏至',
  '小暑', '大暑', '立秋', '处暑', '白露', '秋分', '寒露', '霜降', '立冬', '小雪', '大雪', '冬至',
] as const;

/**
 * getJieQiTable() keys the neighbouring years' terms in upper-case pinyin (the previous December's 大雪 is
 * `DA_XUE`, the next year's 冬至…惊蛰 are `DONG_ZHI`…`JING_ZHE`); this names them in Chinese.
 */
const PINYIN_KEYS: Record<string, string> = {
  DA_XUE: '大雪',
  DONG_ZHI: '冬至',
  XIAO_HAN: '小寒',
  DA_HAN: '大寒',
  LI_CHUN: '立春',
  YU_SHUI: '雨水',
  JING_ZHE: '惊蛰',
};

export const MIN_YEAR = 1900;
export const MAX_YEAR = 2100;

/**
 * The 24 terms whose moment (Beijing time) falls in Gregorian `year`, 小寒 … 冬至, chronological.
 *
 * The table of lunar year `year` runs from the previous December's 大雪 to the next March's 惊蛰, and its
 * Chinese-keyed 冬至 is the *previous* December's: so the terms are selected by the year of their moment,
 * not by key. No term falls near 1 January, so every year has exactly 24.
 *
 * @example solarTermsOfYear(2026)[2] // { name: '立春', date: '2026-02-04 04:02:08' }
 */
export function solarTermsOfYear(year: number): SolarTerm[] {
  const lunar = Lunar.fromYmd(year, 1, 1);
  const table = lunar.getJieQiTable();
  const prefix = `${year}-`;
  const terms = lunar
    .getJieQiList()
    .map((key) => ({ name: PINYIN_KEYS[key] ?? key, date: table[key].toYmdHms() }))
    .filter((t) => t.date.startsWith(prefix))
    .sort((a, b) => a.date.localeCompare(b.date));
  if (terms.length !== 24 || terms.some((t, i) => t.name !== SOLAR_TERM_NAMES[i])) {
    // A change in lunar-javascript's table layout must not turn into a silently wrong answer.
    throw new Error(`solar terms of ${year}: unexpected table (${terms.map((t) => t.name).join(',')})`);
  }
  return terms;
}
