/**
 * Random mainland ID numbers that pass every check of public/shared/id-card.ts: a current county-level region code,
 * a real birthday not in the future, a sequence whose parity is the sex, and the MOD 11-2 check digit.
 * Pure: no HTTP framework. Fictional numbers for tests and demos; a real person may hold any of them.
 */
import { paramError } from '../../../errors.js';
import { civilOf, dayOf, dayOfYmd, yearsBefore, ymdText } from '../../../engines/calendar/civil-date.js';
import { composeIdFacts, idRegions, regionInfo, type IdFacts, type RegionInfo } from '../../shared/id-card.js';
import { perObject } from '../../../shared/memo.js';
import { shortNames } from '../../../engines/postcodes/postcodes.js';
import type { Gender } from './random-user.js';
import type { Rng } from '../../../shared/rng.js';

export const MIN_BIRTH_YEAR = 1900;

/**
 * Codes of the NBS table (统计用区划代码, the current table of data/id-card-regions.json) that no GB/T 2260 table of
 * the Ministry of Civil Affairs has: areas counted for statistics that are not county-level divisions, so no ID
 * number is issued under them. Development zones are the `xxxx7x` block (苏州工业园区 320571, …); besides those:
 */
export const STATISTICAL_CODES: ReadonlyMap<string, string> = new Map([
  // 大兴安岭地区's four districts, set up by 黑龙江 and never approved as divisions: the GB/T 2260 prefecture has
  // 漠河市 232701, 呼玛县 232721 and 塔河县 232722 only.
  ['232761', '加格达奇区'],
  ['232762', '松岭区'],
  ['232763', '新林区'],
  ['232764', '呼中区'],
  // An administrative committee of 海西州, not a county (GB/T 2260: 格尔木市, 德令哈市, 茫崖市 and three counties).
  ['632857', '大柴旦行政委员会'],
]);

/** Whether a code is one of the NBS's statistics-only codes (a development zone or STATISTICAL_CODES). */
export const isStatisticalCode = (code: string) => /7\d$/u.test(code) || STATISTICAL_CODES.has(code);

/** Region codes a number is drawn from: current codes only, without the NBS's statistics-only codes. */
export function issuingCodes(table = idRegions()): string[] {
  return [...table].filter(([code, r]) => !r.historical && !isStatisticalCode(code)).map(([code]) => code);
}

export interface ProvinceChoice {
  code: string;
  name: string;
}

/** The provinces numbers are issued in, by two-digit code. */
export function issuingProvinces(table = idRegions()): ProvinceChoice[] {
  const seen = new Map<string, string>();
  for (const [code, r] of table)
    if (!r.historical && !seen.has(code.slice(0, 2))) seen.set(code.slice(0, 2), r.province);
  return [...seen].map(([code, name]) => ({ code, name })).sort((a, b) => a.code.localeCompare(b.code));
}

/** `44`, `广东`, `广东省`, `广西`, `内蒙古自治区` → the two-digit code; anything else is an error naming `province`. */
export function resolveProvince(raw: string, provinces = issuingProvinces()): string {
  const text = raw.trim();
  const hit = provinces.find((p) => p.code === text || p.name === text || shortNames(p.name).includes(text));
  if (!hit)
    throw paramError(
      'province',
      `应为省级行政区的名称（如 广东、广东省）或两位代码（如 44），共 ${provinces.length} 个`,
      raw,
    );
  return hit.code;
}

/**
 * Which days a default (no `birthYear`) birthday is drawn from, so that the person is aged 18 to 70 on the day of the
 * request. `day`: born between 71 years minus a day and 18 years before today (every age 18–70 equally likely), the
 * draw of a caller without a seed. `year`: born between 1 January 70 years and 1 January 18 years before this year,
 * so the person is 18–70 on every day of the year; a seeded answer then stays the same all calendar year (Asia/Shanghai)
 * and moves on with the year, instead of being aged against a fixed date and drifting past 70.
 */
export type AgeWindow = 'day' | 'year';

/**
 * A birthday up to `today`: any day of `birthYear` when given (up to today in the current year), otherwise someone
 * aged 18 to 70 today (see AgeWindow). `birthYear` out of 1900…this year is an error naming it.
 */
export function randomBirthday(rng: Rng, today: string, birthYear?: number, window: AgeWindow = 'day'): string {
  return ymdText(civilOf(randomBirthDay(rng, today, birthYear, window)));
}

/** randomBirthday as a day number (civil-date.ts): what the generators build the number from. */
export function randomBirthDay(rng: Rng, today: string, birthYear?: number, window: AgeWindow = 'day'): number {
  const year = Number(today.slice(0, 4));
  let from: number;
  let to: number;
  if (birthYear !== undefined) {
    if (birthYear < MIN_BIRTH_YEAR || birthYear > year)
      throw paramError('birthYear', `应为 ${MIN_BIRTH_YEAR} 至 ${year} 之间的年份`, birthYear);
    from = dayOf(birthYear, 1, 1);
    to = Math.min(dayOf(birthYear, 12, 31), dayOfYmd(today));
  } else if (window === 'year') {
    from = dayOf(year - 70, 1, 1);
    to = dayOf(year - 18, 1, 1);
  } else {
    const m = Number(today.slice(5, 7));
    const d = Number(today.slice(8, 10));
    from = yearsBefore(year, m, d, 71) + 1;
    to = yearsBefore(year, m, d, 18);
  }
  return from + rng.int(to - from + 1);
}

/** Sequence 001–999 with the parity of the sex: odd for men, even (never 000) for women. */
export function randomSequence(rng: Rng, gender: Gender): number {
  return gender === 'male' ? rng.int(500) * 2 + 1 : (rng.int(499) + 1) * 2;
}

export interface RandomIdOptions {
  gender?: Gender;
  /** Two-digit province code (see resolveProvince). */
  province?: string;
  birthYear?: number;
  /** How a default birthday keeps the age 18–70 today: `year` for seeded answers (see AgeWindow). */
  ageWindow?: AgeWindow;
}

/** Draws one number and returns it with what it encodes (the same report /api/id-card gives). */
export function randomIdCard(
  rng: Rng,
  opts: RandomIdOptions,
  today: string,
  codes = issuingCodes(),
): IdFacts & { id: string } {
  const pool = regionPool(codes, opts.province ?? '', () =>
    codes.filter((c) => c.startsWith(opts.province ?? '')).map((c) => regionInfo(c)!),
  );
  const gender = opts.gender ?? (rng.int(2) === 0 ? 'male' : 'female');
  const region = pool[rng.int(pool.length)];
  const day = randomBirthDay(rng, today, opts.birthYear, opts.ageWindow);
  return composeIdFacts(region, day, randomSequence(rng, gender), today);
}

/** The regions of a code list (of one province, or all: ''), looked up once per list and province, not on every draw. */
const regionPool = perObject<readonly string[], readonly RegionInfo[]>();
