import { describe, expect, it } from 'vitest';
import { beijingTime } from './time';

describe('beijingTime', () => {
  it('shows an instant in Beijing time as YYYY-MM-DD HH:mm', () => {
    expect(beijingTime('2026-11-23T06:32:59.000Z')).toBe('2026-11-23 14:32');
    expect(beijingTime('2026-12-31T16:05:00Z')).toBe('2027-01-01 00:05');
    expect(beijingTime(null)).toBe('');
  });
});
