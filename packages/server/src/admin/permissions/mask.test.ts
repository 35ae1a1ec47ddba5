import { describe, expect, it } from 'vitest';
import { hasBits, normalizeMask, orMasks, parseGrantBits, NORMALIZED_SUPER_MASK } from './mask.js';
import { PERMISSION, PERMISSION_POINTS, ALL_POINT_BITS, bitsOf } from './points.js';

describe('permission points', () => {
  it('are ten distinct single bits 1…512 with the contract labels and icons for the first four', () => {
    expect(PERMISSION_POINTS.map((p) => p.bits)).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512]);
    expect(PERMISSION_POINTS.slice(0, 4).map((p) => [p.label, p.icon])).toEqual([
      ['search', 'search'],
      ['add', 'plus'],
      ['edit', 'pencil-line'],
      ['delete', 'trash-2'],
    ]);
    expect(ALL_POINT_BITS).toBe(1023);
    expect(bitsOf(['SEARCH', 'EXPORT'])).toBe(513);
  });
});

describe('mask arithmetic', () => {
  it('normalises the super mask -1 to 2^63-1 exactly and leaves others alone', () => {
    expect(normalizeMask(-1)).toBe(NORMALIZED_SUPER_MASK);
    expect(String(normalizeMask(-1))).toBe('9223372036854775807');
    expect(normalizeMask(5)).toBe(5);
    expect(normalizeMask(0)).toBe(0);
  });

  it('passes for -1 and 2^63-1 whatever is required', () => {
    expect(hasBits(-1, PERMISSION.GRANT | PERMISSION.EXPORT)).toBe(true);
    expect(hasBits(NORMALIZED_SUPER_MASK, PERMISSION.GRANT)).toBe(true);
  });

  it('requires every declared bit together', () => {
    expect(hasBits(PERMISSION.SEARCH, PERMISSION.SEARCH | PERMISSION.EDIT)).toBe(false);
    expect(hasBits(PERMISSION.SEARCH | PERMISSION.EDIT, PERMISSION.SEARCH | PERMISSION.EDIT)).toBe(true);
    expect(hasBits(0, PERMISSION.SEARCH)).toBe(false);
    expect(hasBits(0, 0)).toBe(true);
  });

  it('does not truncate to 32 bits', () => {
    // 2^32 + 1 would become 1 under JavaScript's 32-bit &.
    expect(hasBits(2 ** 32, 1)).toBe(false);
    expect(hasBits(2 ** 32 + 1, 2 ** 32)).toBe(true);
  });

  it('ORs role masks, any all-ones winning', () => {
    expect(orMasks([1, 4, 512])).toBe(517);
    expect(orMasks([1, -1, 4])).toBe(-1);
    expect(orMasks([])).toBe(0);
  });

  it('accepts grants made of the ten points only', () => {
    expect(parseGrantBits(5)).toBe(5);
    expect(parseGrantBits('9223372036854775807')).toBe(-1);
    expect(parseGrantBits(-1)).toBe(-1);
    expect(parseGrantBits(1024)).toBeUndefined();
    expect(parseGrantBits(-2)).toBeUndefined();
    expect(parseGrantBits(1.5)).toBeUndefined();
    expect(parseGrantBits('abc')).toBeUndefined();
  });
});
