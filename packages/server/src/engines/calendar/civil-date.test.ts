import { describe, expect, it } from 'vitest';
import { civilOf, dayOf, dayOfYmd, ymdText } from './civil-date.js';

describe('civil dates', () => {
  it('agree with Date on every day from 1800 to 2200', () => {
    const DAY = 86400_000;
    for (let day = Date.UTC(1800, 0, 1) / DAY; day <= Date.UTC(2200, 11, 31) / DAY; day++) {
      const iso = new Date(day * DAY).toISOString().slice(0, 10);
      const c = civilOf(day);
      if (ymdText(c) !== iso) expect(ymdText(c)).toBe(iso);
      if (dayOf(c.y, c.m, c.d) !== day) expect(dayOf(c.y, c.m, c.d)).toBe(day);
      if (dayOfYmd(iso) !== day) expect(dayOfYmd(iso)).toBe(day);
    }
  });

  it('counts from 1970-01-01', () => {
    expect(dayOf(1970, 1, 1)).toBe(0);
    expect(civilOf(-1)).toEqual({ y: 1969, m: 12, d: 31 });
    expect(ymdText(civilOf(dayOf(2024, 2, 29)))).toBe('2024-02-29');
  });
});
