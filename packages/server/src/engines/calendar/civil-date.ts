/**
 * Calendar dates as day numbers (days since 1970-01-01) and back, in integer arithmetic: the random generators draw
 * thousands of birthdays, and `Date.parse` / `toISOString` cost more than the rest of a draw. Proleptic Gregorian,
 * any year (Howard Hinnant's days_from_civil / civil_from_days).
 */

export interface CivilDate {
  y: number;
  /** 1…12 */
  m: number;
  /** 1…31 */
  d: number;
}

/** Day number of y-m-d. @example dayOf(1970, 1, 1) // 0 */
export function dayOf(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
}

/** The date of a day number. @example civilOf(0) // { y: 1970, m: 1, d: 1 } */
export function civilOf(day: number): CivilDate {
  const z = day + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const m = mp < 10 ? mp + 3 : mp - 9;
  return { y: yoe + era * 400 + (m <= 2 ? 1 : 0), m, d: doy - Math.floor((153 * mp + 2) / 5) + 1 };
}

/** Day number of the same calendar day `years` before y-m-d (29 February becomes the 28th). */
export const yearsBefore = (y: number, m: number, d: number, years: number): number =>
  dayOf(y - years, m, m === 2 && d === 29 ? 28 : d);

/** `01`…`31`: month and day digits. */
export const TWO_DIGITS: readonly string[] = Array.from({ length: 32 }, (_, i) => String(i).padStart(2, '0'));

/** `YYYY-MM-DD` of a date with a four-digit year. */
export const ymdText = ({ y, m, d }: CivilDate): string => `${y}-${TWO_DIGITS[m]}-${TWO_DIGITS[d]}`;

/** Day number of a `YYYY-MM-DD` text (not checked: the caller's own dates). */
export const dayOfYmd = (ymd: string): number =>
  dayOf(Number(ymd.slice(0, 4)), Number(ymd.slice(5, 7)), Number(ymd.slice(8, 10)));
