import { describe, expect, it } from 'vitest';
import { beijingTime } from './time.js';

describe('beijingTime', () => {
  it('shows an instant in Beijing time as YYYY-MM-DD HH:mm, across a date line and from milliseconds', () => {
    expect(beijingTime('2026-11-23T06:32:59.000Z')).toBe('2026-11-23 14:32');
    expect(beijingTime('2026-12-31T16:05:00Z')).toBe('2027-01-01 00:05');
    expect(beijingTime(Date.UTC(2026, 10, 23, 16, 0))).toBe('2026-11-24 00:00');
  });

  it('shows nothing as empty and a value that is not a date as it is, rather than throwing', () => {
    expect(beijingTime(null)).toBe('');
    expect(beijingTime(undefined)).toBe('');
    expect(beijingTime('')).toBe('');
    expect(beijingTime('soon')).toBe('soon');
  });
});
