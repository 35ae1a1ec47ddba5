import { describe, expect, it } from 'vitest';
import { PERMISSION_POINTS as SERVER_POINTS } from '../../server/src/admin/permissions/points.js';
import { ALL_ONES, bitsOf, hasBits, PERMISSION_POINTS, pointsIn, toMask } from './mask.js';

describe('mask rules (same as the server)', () => {
  it('the ten points are the server’s, with the same labels and lucide icons', () => {
    expect(PERMISSION_POINTS).toEqual(SERVER_POINTS);
  });

  it('reads the super administrator’s mask as all-ones however JSON delivered it', () => {
    // JSON.parse('9223372036854775807') is the double 9223372036854775808.
    expect(toMask(JSON.parse('9223372036854775807') as number)).toBe(ALL_ONES);
    expect(toMask('9223372036854775807')).toBe(ALL_ONES);
    expect(toMask(9223372036854775807n)).toBe(ALL_ONES);
    expect(toMask(-1)).toBe(ALL_ONES);
    expect(toMask('-1')).toBe(ALL_ONES);
    expect(toMask(517)).toBe(517n);
    expect(toMask(null)).toBe(0n);
  });

  it('all-ones passes every check; otherwise every required bit must be set', () => {
    const all = bitsOf(PERMISSION_POINTS.map((p) => p.value));
    expect(hasBits(JSON.parse('9223372036854775807') as number, all)).toBe(true);
    expect(hasBits(-1, bitsOf(['EXPORT']))).toBe(true);
    expect(hasBits(5, bitsOf(['SEARCH', 'EDIT']))).toBe(true);
    expect(hasBits(5, bitsOf(['SEARCH', 'ADD']))).toBe(false);
    expect(hasBits(0, 0n)).toBe(true);
    // 512 sits above bit 8: a 32-bit truncation bug would not show here, but 2^40 would.
    expect(hasBits(2 ** 40 + 512, bitsOf(['EXPORT']))).toBe(true);
  });

  it('lists the points of a grant in order', () => {
    expect(pointsIn(1 + 4 + 512)).toEqual(['SEARCH', 'EDIT', 'EXPORT']);
    expect(pointsIn(-1)).toHaveLength(10);
    expect(pointsIn(0)).toEqual([]);
  });
});
