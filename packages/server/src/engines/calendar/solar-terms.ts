/**
 * The 24 solar terms (二十四节气) of a Gregorian year, from the shipped table `data/solar-terms.json`: the moment
 * the Sun's apparent longitude reaches k·15°, Beijing time, to the second, precomputed with astronomy-engine
 * (`scripts/build-solar-terms.ts`; see data/README.md).
 *
 * Pure module: no HTTP framework here.
 */
import { readDataJson } from '../../data-files.js';

export interface SolarTerm {
  /** Chinese name, e.g. `立春`. */
  name: string;
  /** The moment the Sun's apparent longitude reaches the term's multiple of 15°, Beijing time: `YYYY-MM-DD HH:MM:SS`. */
  date: string;
}

/** The terms in the order they fall in a Gregorian year. */
export const SOLAR_TERM_NAMES = [
  '小寒',
  '大寒',
  '立春',
  '雨水',
  '惊蛰',
  '春分',
  '清明',
  '谷雨',
  '立夏',
  '小满',
  '芒种',
  '夏至',
  '小暑',
  '大暑',
  '立秋',
  '处暑',
  '白露',
  '秋分',
  '寒露',
  '霜降',
  '立冬',
  '小雪',
  '大雪',
  '冬至',
] as const;

export const MIN_YEAR = 1900;
export const MAX_YEAR = 2100;

const MOMENT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/**
 * Reads and checks `data/solar-terms.json`: every year of the range with 24 chronological moments inside that
 * year. A missing or malformed table stops the boot with a message that says so.
 */
export function loadSolarTermTable(): Map<number, SolarTerm[]> {
  const raw = readDataJson<Record<string, unknown>>('solar-terms.json');
  if (raw === undefined) throw new Error('data/solar-terms.json is missing');
  const table = new Map<number, SolarTerm[]>();
  for (let year = MIN_YEAR; year <= MAX_YEAR; year++) {
    const moments = raw[year];
    const ok =
      Array.isArray(moments) &&
      moments.length === 24 &&
      moments.every(
        (m, i) =>
          typeof m === 'string' && MOMENT.test(m) && m.startsWith(`${year}-`) && (i === 0 || m > moments[i - 1]),
      );
    if (!ok)
      throw new Error(
        `data/solar-terms.json is malformed at year ${year}: expected 24 chronological moments YYYY-MM-DD HH:MM:SS`,
      );
    table.set(
      year,
      (moments as string[]).map((date, i) => ({ name: SOLAR_TERM_NAMES[i], date })),
    );
  }
  return table;
}

let table: Map<number, SolarTerm[]> | undefined;

/**
 * The 24 terms whose moment (Beijing time) falls in Gregorian `year` (1900–2100), 小寒 … 冬至, chronological.
 *
 * @example solarTermsOfYear(2026)[2] // { name: '立春', date: '2026-02-04 04:01:55' }
 */
export function solarTermsOfYear(year: number): SolarTerm[] {
  table ??= loadSolarTermTable();
  const terms = table.get(year);
  if (!terms) throw new RangeError(`solar terms: year must be ${MIN_YEAR}…${MAX_YEAR}, got ${year}`);
  return terms.map((t) => ({ ...t }));
}
