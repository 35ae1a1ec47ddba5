import { describe, expect, it } from 'vitest';
import { daysBetween, describeYears, holidaysOfYear, weekendDays, type HolidaySchedules } from './holidays.js';

const schedules: HolidaySchedules = {
  '2023': [
    { name: '中秋节、国庆节', start: '2023-09-29', end: '2023-10-06', work: ['2023-10-07', '2023-10-08'] },
    { name: '元旦', start: '2022-12-31', end: '2023-01-02', work: [] },
  ],
  '2025': [
    { name: '元旦', start: '2025-01-01', end: '2025-01-01', work: [] },
    { name: '春节', start: '2025-01-28', end: '2025-02-04', work: ['2025-01-26', '2025-02-08'] },
  ],
};

describe('holidaysOfYear', () => {
  it('gives 2025 春节 its 8 days off, its two make-up days and a balance of 4', () => {
    const spring = holidaysOfYear(schedules, 2025, '2025-01-20').find((h) => h.name === '春节');
    // 8 days, of which 2 (Sat 02-01, Sun 02-02) are weekend days anyway, and 2 Saturdays/Sundays are worked: 8 − 2 − 2.
    expect(spring).toEqual({
      name: '春节',
      start: '2025-01-28',
      end: '2025-02-04',
      distance: 8,
      length: 8,
      balance: 4,
      work: ['2025-01-26', '2025-02-08'],
    });
  });

  it('counts distance in whole days to start: positive before, 0 on the first day off, negative after', () => {
    const distance = (today: string) => holidaysOfYear(schedules, 2025, today)[1].distance;
    expect(distance('2024-12-31')).toBe(28);
    expect(distance('2025-01-28')).toBe(0);
    expect(distance('2025-02-04')).toBe(-7);
    expect(distance('2026-01-28')).toBe(-365);
  });

  it('lists a year’s blocks chronologically, a 元旦 block starting in the previous December first', () => {
    const list = holidaysOfYear(schedules, 2023, '2023-06-01');
    expect(list.map((h) => h.name)).toEqual(['元旦', '中秋节、国庆节']);
    expect(list[0]).toMatchObject({ start: '2022-12-31', length: 3, balance: 1 });
    // 中秋国庆 2023: 8 days with Sat 09-30 and Sun 10-01 inside, 2 make-up days: 8 − 2 − 2 = 4.
    expect(list[1]).toMatchObject({ length: 8, balance: 4 });
  });

  it('refuses a year without a published schedule, saying which years there are', () => {
    expect(() => holidaysOfYear(schedules, 2027, '2026-01-01')).toThrow(/参数 year.*2027.*2023、2025/);
    expect(() => holidaysOfYear({}, 2025, '2025-01-01')).toThrow(/（无）/);
  });

  it('does not hand out the schedule’s own arrays', () => {
    const [first] = holidaysOfYear(schedules, 2025, '2025-01-01');
    first.work.push('2099-01-01');
    expect(schedules['2025'][0].work).toEqual([]);
  });
});

describe('date arithmetic', () => {
  it('counts days across month, year and leap-day boundaries', () => {
    expect(daysBetween('2024-02-28', '2024-03-01')).toBe(2);
    expect(daysBetween('2023-02-28', '2023-03-01')).toBe(1);
    expect(daysBetween('2025-12-31', '2026-01-01')).toBe(1);
    expect(daysBetween('2026-01-01', '2025-01-01')).toBe(-365);
  });

  it('counts Saturdays and Sundays inside a span', () => {
    expect(weekendDays('2025-01-28', 8)).toBe(2); // Tue … Tue
    expect(weekendDays('2025-10-04', 2)).toBe(2); // Sat, Sun
    expect(weekendDays('2025-10-06', 5)).toBe(0); // Mon … Fri
  });

  it('describes the available years as ranges', () => {
    expect(describeYears([2004, 2005, 2006])).toBe('2004 至 2006');
    expect(describeYears([2004, 2005, 2007, 2009, 2010])).toBe('2004 至 2005、2007、2009 至 2010');
    expect(describeYears([2025])).toBe('2025');
  });
});
