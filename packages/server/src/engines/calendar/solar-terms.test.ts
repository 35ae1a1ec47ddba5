import { describe, expect, it } from 'vitest';
import { MAX_YEAR, MIN_YEAR, SOLAR_TERM_NAMES, solarTermsOfYear } from './solar-terms.js';

/** Beijing time of `YYYY-MM-DD HH:MM:SS` as epoch ms. */
const beijing = (s: string) => Date.parse(`${s.replace(' ', 'T')}+08:00`);

/**
 * Equinoxes, solstices and 立春 as published by astronomical almanacs (USNO / IMCCE tables, UTC to the minute),
 * written out here independently of lunar-javascript.
 */
const KNOWN_UTC: Array<[number, string, string]> = [
  [2000, '春分', '2000-03-20T07:35Z'],
  [2000, '夏至', '2000-06-21T01:48Z'],
  [2000, '冬至', '2000-12-21T13:37Z'],
  [2023, '冬至', '2023-12-22T03:27Z'],
  [2024, '春分', '2024-03-20T03:06Z'],
  [2024, '夏至', '2024-06-20T20:51Z'],
  [2024, '秋分', '2024-09-22T12:44Z'],
  [2024, '冬至', '2024-12-21T09:20Z'],
  [2025, '春分', '2025-03-20T09:01Z'],
  [2025, '夏至', '2025-06-21T02:42Z'],
  [2025, '秋分', '2025-09-22T18:19Z'],
  [2025, '冬至', '2025-12-21T15:03Z'],
  [2026, '立春', '2026-02-03T20:02Z'],
  [2026, '春分', '2026-03-20T14:46Z'],
  [2026, '夏至', '2026-06-21T08:24Z'],
  [2026, '秋分', '2026-09-23T00:05Z'],
  [2026, '冬至', '2026-12-21T20:50Z'],
];

describe('solarTermsOfYear', () => {
  it('returns the 24 terms of the Gregorian year, 小寒 first and 冬至 last, in chronological order', () => {
    const terms = solarTermsOfYear(2026);
    expect(terms.map((t) => t.name)).toEqual([...SOLAR_TERM_NAMES]);
    for (const t of terms) expect(t.date).toMatch(/^2026-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const times = terms.map((t) => beijing(t.date));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('selects this year’s 冬至 (December), not the previous December’s one the lunar table keys in Chinese', () => {
    expect(solarTermsOfYear(2026).at(-1)).toEqual({ name: '冬至', date: expect.stringMatching(/^2026-12-22 /) });
    expect(solarTermsOfYear(2026)[0]).toEqual({ name: '小寒', date: expect.stringMatching(/^2026-01-05 /) });
  });

  it('puts 2026 立春 at 2026-02-04 between 04:01 and 04:03 Beijing time', () => {
    const t = solarTermsOfYear(2026).find((x) => x.name === '立春')!;
    expect(beijing(t.date)).toBeGreaterThanOrEqual(beijing('2026-02-04 04:01:00'));
    expect(beijing(t.date)).toBeLessThanOrEqual(beijing('2026-02-04 04:03:00'));
  });

  it('puts 2024 冬至 at 17:20–17:21 and 2025 春分 at 17:01–17:02 Beijing time', () => {
    const dz = solarTermsOfYear(2024).find((x) => x.name === '冬至')!;
    expect(dz.date >= '2024-12-21 17:20:00' && dz.date <= '2024-12-21 17:21:59').toBe(true);
    const cf = solarTermsOfYear(2025).find((x) => x.name === '春分')!;
    expect(cf.date >= '2025-03-20 17:01:00' && cf.date <= '2025-03-20 17:02:59').toBe(true);
  });

  it.each(KNOWN_UTC)('%i %s agrees with the astronomical moment %s within one minute', (year, name, utc) => {
    const t = solarTermsOfYear(year).find((x) => x.name === name)!;
    expect(Math.abs(beijing(t.date) - Date.parse(utc))).toBeLessThanOrEqual(60_000);
  });

  it('answers every year of the range with 24 terms 14–16 days apart', () => {
    for (let y = MIN_YEAR; y <= MAX_YEAR; y++) {
      const terms = solarTermsOfYear(y);
      expect(terms.map((t) => t.name)).toEqual([...SOLAR_TERM_NAMES]);
      for (let i = 1; i < terms.length; i++) {
        const gap = (beijing(terms[i].date) - beijing(terms[i - 1].date)) / 86_400_000;
        expect(gap, `${y} ${terms[i].name}`).toBeGreaterThan(14);
        expect(gap, `${y} ${terms[i].name}`).toBeLessThan(16);
      }
    }
  });
});
