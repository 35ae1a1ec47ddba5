import { describe, expect, it } from 'vitest';
import { MakeTime, SunPosition } from 'astronomy-engine';
import lunarJs from 'lunar-javascript';
import { MAX_YEAR, MIN_YEAR, solarTermsOfYear } from '../../../engines/calendar/solar-terms.js';
import { computeSolarTermTable } from '../../../engines/calendar/solar-terms-astronomy.js';

/** Beijing time of `YYYY-MM-DD HH:MM:SS` as a Date. */
const beijing = (s: string) => new Date(`${s.replace(' ', 'T')}+08:00`);

/** Signed difference `a − b` of two longitudes, in degrees within ±180. */
const angle = (a: number, b: number) => ((a - b + 540) % 360) - 180;

/** Seconds between `at` and the moment the Sun's apparent longitude is `target`, from its local speed. */
function secondsOff(at: Date, target: number): number {
  const here = SunPosition(MakeTime(at)).elon;
  const speed = angle(SunPosition(MakeTime(new Date(at.getTime() + 60_000))).elon, here) / 60; // degrees per second
  return Math.abs(angle(here, target) / speed);
}

describe('data/solar-terms.json', () => {
  const years = Array.from({ length: MAX_YEAR - MIN_YEAR + 1 }, (_, i) => MIN_YEAR + i);

  it('puts every moment 1900–2100 within 1 s of the Sun’s apparent longitude reaching k·15°', () => {
    let worst = 0;
    for (const year of years) {
      solarTermsOfYear(year).forEach((t, i) => {
        worst = Math.max(worst, secondsOff(beijing(t.date), (285 + 15 * i) % 360));
      });
    }
    // Rounding to the second leaves at most 0.5 s.
    expect(worst).toBeLessThanOrEqual(1);
  });

  it('is what scripts/build-solar-terms.ts computes today (regenerate the file after upgrading astronomy-engine)', () => {
    const table = computeSolarTermTable(MIN_YEAR, MAX_YEAR);
    for (const year of years)
      expect(
        solarTermsOfYear(year).map((t) => t.date),
        String(year),
      ).toEqual(table[year]);
  });

  it('agrees with an independent ephemeris (lunar-javascript’s 寿星天文历) within about a minute', () => {
    for (const year of [1900, 1950, 2000, 2026, 2050, 2100]) {
      const jq = lunarJs.Lunar.fromYmd(year, 6, 1).getJieQiTable();
      for (const t of solarTermsOfYear(year).filter((x) => x.name === '夏至' || x.name === '立秋')) {
        const other = jq[t.name].toYmdHms();
        expect(Math.abs(beijing(t.date).getTime() - beijing(other).getTime()), `${year} ${t.name}`).toBeLessThanOrEqual(
          90_000,
        );
      }
    }
  });
});
