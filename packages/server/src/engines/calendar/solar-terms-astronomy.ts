/**
 * Solar-term moments from astronomy-engine: used only by the build script and the test that re-checks the shipped
 * table (astronomy-engine is a dev dependency; the running service reads `data/solar-terms.json`).
 */
import { SearchSunLongitude } from 'astronomy-engine';

const DAY_MS = 86_400_000;
const BEIJING_MS = 8 * 3_600_000;

/** `Date` → `YYYY-MM-DD HH:MM:SS` in Beijing time (UTC+8), rounded to the nearest second. */
export function beijingSecond(date: Date): string {
  const ms = Math.round(date.getTime() / 1000) * 1000 + BEIJING_MS;
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * The exact moment (ms precision) the Sun's apparent longitude reaches `longitude`° for the term that falls in
 * Gregorian `year` at position `index` (0 = 小寒 at 285°, … 23 = 冬至 at 270°).
 */
export function solarTermMoment(year: number, index: number): Date {
  const longitude = (285 + index * 15) % 360;
  // Each term falls within a few days of the 6th/21st of its month; start the search 10 days before.
  const month = Math.floor(index / 2);
  const approx = Date.UTC(year, month, index % 2 === 0 ? 6 : 21);
  const found = SearchSunLongitude(longitude, new Date(approx - 10 * DAY_MS), 20);
  if (!found) throw new Error(`no solar longitude ${longitude}° found near ${year} term ${index}`);
  return found.date;
}

/** Every year's 24 moments in Beijing time, `{ "1900": [小寒 … 冬至], … }`. */
export function computeSolarTermTable(from: number, to: number): Record<string, string[]> {
  const table: Record<string, string[]> = {};
  for (let year = from; year <= to; year++) {
    table[year] = Array.from({ length: 24 }, (_, i) => beijingSecond(solarTermMoment(year, i)));
  }
  return table;
}
