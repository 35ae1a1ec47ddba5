/**
 * Mainland resident ID numbers (居民身份证号码, GB 11643-1999) and the residence permits for Hong Kong, Macau and
 * Taiwan residents that share their layout: validation, 15 → 18 conversion, and the facts a
 * number encodes. Pure: no HTTP framework; "today" is passed in so answers are testable.
 *
 * Layout of the 18 digits: 6 region code (GB/T 2260) · 8 birthday YYYYMMDD · 3 sequence (odd = male) · 1 check digit
 * (ISO 7064 MOD 11-2, `X` for 10). Old 15-digit numbers have a 2-digit year and no check digit.
 */
import { readFileSync } from 'node:fs';
import lunarJs from 'lunar-javascript';
import { civilOf, dayOf, TWO_DIGITS, type CivilDate } from '../../engines/calendar/civil-date.js';
import { lunarDateOfDay } from '../../engines/calendar/lunar-date.js';
import { perObject } from '../../shared/memo.js';

const { Solar } = lunarJs;

export interface IdRegion {
  province: string;
  /** Prefecture-level city; the municipality itself for 北京/天津/上海/重庆; empty for a county under its province. */
  city: string;
  /** County-level division as it was named on the issuing table (`市辖区` on some old city-wide codes). */
  district: string;
  /** true when the code is no longer in the 2023 table (abolished or recoded), kept so old cards still resolve. */
  historical: boolean;
}

export interface RegionInfo extends IdRegion {
  code: string;
  /** Province, city and district joined without repeats, e.g. `北京市东城区`. */
  name: string;
}

export type IdCardProblem = 'length' | 'characters' | 'region' | 'birthday' | 'future_birthday' | 'checksum';

/** What a birthday says about its owner; shared with the random generators. */
export interface BirthFacts {
  birthday: string;
  age: number;
  /** 生肖 of the lunar year (the animal changes at the Spring Festival, not on 1 January). */
  zodiac: string;
  /** e.g. `水瓶座` */
  constellation: string;
  /** e.g. `一九八九年腊月三十` */
  lunarBirthday: string;
}

export type IdDocument = '居民身份证' | '港澳居民居住证' | '台湾居民居住证';

/** Everything a valid number encodes. */
export interface IdFacts extends BirthFacts {
  gender: '男' | '女';
  region: RegionInfo;
  /** Which card the number belongs to: the mainland ID card, or a residence permit for HK/Macau or Taiwan residents. */
  document: IdDocument;
}

export interface IdCardReport extends Partial<IdFacts> {
  /** The number as checked: trimmed, `x` upper-cased. */
  input: string;
  valid: boolean;
  /** Why the number is invalid (the first problem found, in the order length, characters, region, birthday, checksum). */
  reason?: string;
  problem?: IdCardProblem;
  /** The 18-digit form: the number itself, or the converted 15-digit number. */
  id18?: string;
  /** The check digit the first 17 digits call for, whenever they are well formed (also on a checksum failure). */
  expectedCheckDigit?: string;
}

const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const CHECK_CHARS = '10X98765432';
/**
 * Earliest birthday accepted. Resident ID cards began in 1984; the oldest person ever verified was born in 1875 and
 * nobody alive when 18-digit numbers appeared (1999) was born before 1900, so an earlier year marks a made-up number.
 */
export const EARLIEST_BIRTHDAY = '1900-01-01';

/**
 * Residence permits for Hong Kong, Macau and Taiwan residents (港澳台居民居住证, issued since 1 September 2018 under
 * the State Council's 《港澳台居民居住证申领发放办法》) use the ID-number layout with these fixed region codes.
 * They are not GB/T 2260 county codes, so they live here rather than in the region table (which the random
 * generators draw mainland numbers from). Permits only ever have 18 digits.
 */
const RESIDENCE_PERMITS: Record<string, { region: IdRegion; document: IdDocument }> = {
  '810000': {
    region: { province: '香港特别行政区', city: '', district: '', historical: false },
    document: '港澳居民居住证',
  },
  '820000': {
    region: { province: '澳门特别行政区', city: '', district: '', historical: false },
    document: '港澳居民居住证',
  },
  '830000': { region: { province: '台湾省', city: '', district: '', historical: false }, document: '台湾居民居住证' },
};

const documentOf = (code: string): IdDocument => RESIDENCE_PERMITS[code]?.document ?? '居民身份证';

/** ISO 7064 MOD 11-2 check digit of the first 17 digits: Σ(digit × 2^(17-i) mod 11) → `10X98765432`. */
export function checkDigit(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (first17.charCodeAt(i) - 48) * WEIGHTS[i];
  return CHECK_CHARS[sum % 11];
}

/** A 15-digit number in 18-digit form: `19` inserted before the two-digit year, check digit appended. */
export function to18(id15: string): string {
  const first17 = `${id15.slice(0, 6)}19${id15.slice(6)}`;
  return first17 + checkDigit(first17);
}

let regions: Map<string, IdRegion> | undefined;

/** The shipped code table (`data/id-card-regions.json`, built by `scripts/build-id-card-regions.ts`), read once. */
export function idRegions(): Map<string, IdRegion> {
  if (!regions) {
    const url = new URL('../../../../../data/id-card-regions.json', import.meta.url);
    regions = new Map(Object.entries(JSON.parse(readFileSync(url, 'utf8')) as Record<string, IdRegion>));
  }
  return regions;
}

export function regionInfo(code: string, table = idRegions()): RegionInfo | undefined {
  const r = table.get(code) ?? RESIDENCE_PERMITS[code]?.region;
  if (!r) return undefined;
  return regionInfos(table, code, () => {
    const parts = [r.province, r.city, r.district].filter((p, i, all) => p && p !== all[i - 1]);
    return Object.freeze({ code, ...r, name: parts.join('') });
  });
}

/** Each known code's region, made once per table: at most one per code the table and the permits hold. */
const regionInfos = perObject<Map<string, IdRegion>, RegionInfo>();

/** `YYYYMMDD` → the date and its day number, if that day exists on the Gregorian calendar. */
function realDate(ymd: string): { date: CivilDate; day: number } | undefined {
  const y = Number(ymd.slice(0, 4));
  const m = Number(ymd.slice(4, 6));
  const d = Number(ymd.slice(6, 8));
  if (m < 1 || m > 12 || d < 1 || d > 31) return undefined;
  const day = dayOf(y, m, d);
  const date = civilOf(day);
  return date.m === m && date.d === d ? { date, day } : undefined;
}

const birthdayText = ({ y, m, d }: CivilDate) => `${y}-${TWO_DIGITS[m]}-${TWO_DIGITS[d]}`;

/** Whole years from `birthday` to `today` (both YYYY-MM-DD); a 29 February birthday counts from 1 March in other years. */
export function ageOn(birthday: string, today: string): number {
  const years = Number(today.slice(0, 4)) - Number(birthday.slice(0, 4));
  return today.slice(5) >= birthday.slice(5) ? years : years - 1;
}

export function birthFacts(birthday: string, today: string): BirthFacts {
  const date = { y: Number(birthday.slice(0, 4)), m: Number(birthday.slice(5, 7)), d: Number(birthday.slice(8, 10)) };
  const lunar = lunarDateOfDay(date.y, dayOf(date.y, date.m, date.d));
  return {
    birthday,
    age: ageOn(birthday, today),
    zodiac: lunar.zodiac,
    constellation: constellationOf(date),
    lunarBirthday: lunar.text,
  };
}

/** The star sign of a month and day, from lunar-javascript, worked out once per month and day (it depends on nothing else). */
function constellationOf({ m, d }: CivilDate): string {
  const at = m * 32 + d;
  let sign = constellations[at];
  if (sign === undefined) constellations[at] = sign = `${Solar.fromYmd(2000, m, d).getXingZuo()}座`;
  return sign;
}
const constellations: string[] = [];

const invalid = (
  input: string,
  problem: IdCardProblem,
  reason: string,
  extra: Partial<IdCardReport> = {},
): IdCardReport => ({
  input,
  valid: false,
  problem,
  reason,
  ...extra,
});

/**
 * Checks an ID number and explains it. `today` (YYYY-MM-DD, Asia/Shanghai) decides "future" and the age.
 *
 * @example inspectIdCard('11010519491231002X', '2026-11-21').zodiac // '牛' (born before the 1950 Spring Festival)
 */
export function inspectIdCard(raw: string, today: string, table = idRegions()): IdCardReport {
  const input = raw.trim().toUpperCase();
  const n = input.length;
  if (n !== 18 && n !== 15) return invalid(input, 'length', `号码长度应为 18 位（或 15 位旧号码），实际为 ${n} 位`);
  if (n === 15 && !/^\d{15}$/u.test(input)) return invalid(input, 'characters', '15 位旧号码只能由数字组成');
  if (n === 18 && !/^\d{17}[\dX]$/u.test(input))
    return invalid(input, 'characters', '18 位号码的前 17 位必须是数字，第 18 位是数字或 X');

  const id18 = n === 15 ? to18(input) : input;
  const expected = checkDigit(id18.slice(0, 17));
  const facts: Partial<IdCardReport> = { id18, expectedCheckDigit: expected };

  const code = id18.slice(0, 6);
  if (n === 15 && RESIDENCE_PERMITS[code])
    return invalid(input, 'region', `地区码 ${code} 是港澳台居民居住证的代码，居住证号码只有 18 位`, facts);
  const region = regionInfo(code, table);
  if (!region)
    return invalid(
      input,
      'region',
      `地区码 ${code} 不是已知的行政区划代码（已含历史代码及港澳台居民居住证 810000、820000、830000）`,
      facts,
    );

  const ymd = id18.slice(6, 14);
  const born = realDate(ymd);
  if (!born) return invalid(input, 'birthday', `出生日期 ${ymd} 不存在`, facts);
  const birthday = birthdayText(born.date);
  if (birthday < EARLIEST_BIRTHDAY)
    return invalid(input, 'birthday', `出生日期 ${birthday} 早于 ${EARLIEST_BIRTHDAY}，不可能是在世居民的号码`, facts);
  if (birthday > today) return invalid(input, 'future_birthday', `出生日期 ${birthday} 晚于今天（${today}）`, facts);

  if (n === 18 && input[17] !== expected)
    return invalid(input, 'checksum', `校验码错误：第 18 位应为 ${expected}，实际为 ${input[17]}`, facts);

  return { input, valid: true, ...facts, ...idFacts(id18, born.date, born.day, region, today) };
}

function idFacts(id18: string, date: CivilDate, day: number, region: RegionInfo, today: string): IdFacts {
  // One literal (no spread of birthFacts): the generators make thousands of these, and V8 copies spreads slowly.
  const lunar = lunarDateOfDay(date.y, day);
  const birthday = birthdayText(date);
  return {
    gender: (id18.charCodeAt(16) - 48) % 2 === 1 ? '男' : '女',
    birthday,
    age: ageOn(birthday, today),
    zodiac: lunar.zodiac,
    constellation: constellationOf(date),
    lunarBirthday: lunar.text,
    region,
    document: documentOf(region.code),
  };
}

/** The facts of a number the caller built to be valid; a number that is not is a bug and throws. */
export function factsOf(id18: string, today: string, table = idRegions()): IdFacts {
  const region = regionInfo(id18.slice(0, 6), table);
  const born = realDate(id18.slice(6, 14));
  if (!region || !born || birthdayText(born.date) > today || checkDigit(id18) !== id18[17])
    throw new Error(`not a valid ID number: ${id18}`);
  return idFacts(id18, born.date, born.day, region, today);
}

/** Builds a valid 18-digit number from its parts: region code, birthday YYYY-MM-DD and a three-digit sequence. */
export function composeIdCard(regionCode: string, birthday: string, sequence: number): string {
  const first17 = `${regionCode}${birthday.replaceAll('-', '')}${String(sequence).padStart(3, '0')}`;
  return first17 + checkDigit(first17);
}

/**
 * A valid number made from its parts (a region of the table, a birth day number of civil-date.ts, a sequence 0…999)
 * with the facts it encodes: what `{ id, ...factsOf(id, today) }` gives, built from the parts instead of read back
 * from the digits (the random generators draw thousands). The birthday must not be after `today`.
 */
export function composeIdFacts(
  region: RegionInfo,
  day: number,
  sequence: number,
  today: string,
): IdFacts & { id: string } {
  const date = civilOf(day);
  const seq = sequence < 10 ? `00${sequence}` : sequence < 100 ? `0${sequence}` : String(sequence);
  const first17 = `${region.code}${date.y}${TWO_DIGITS[date.m]}${TWO_DIGITS[date.d]}${seq}`;
  const id = first17 + checkDigit(first17);
  return { id, ...idFacts(id, date, day, region, today) };
}
