import { describe, expect, it } from 'vitest';
import { formatUserCode, newDeviceCode, newUserCode, normalizeUserCode, USER_CODE_ALPHABET } from './device-codes.js';

describe('device sign-in codes', () => {
  it('a user code is eight letters of the alphabet, every letter drawn', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const code = newUserCode();
      expect(code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{8}$/);
      for (const c of code) seen.add(c);
    }
    expect(seen.size).toBe(USER_CODE_ALPHABET.length);
  });

  it('reads a code however it is typed: case, dash, spaces, full-width forms', () => {
    expect(formatUserCode('BCDFGHJK')).toBe('BCDF-GHJK');
    for (const typed of ['BCDF-GHJK', 'bcdfghjk', ' bcdf ghjk ', 'Bcdf–Ghjk', 'ｂｃｄｆ－ｇｈｊｋ'])
      expect(normalizeUserCode(typed), typed).toBe('BCDFGHJK');
  });

  it('refuses what cannot be a code: vowels, digits, wrong length', () => {
    for (const typed of ['BCDA-GHJK', 'BCD1-GHJK', 'BCDF-GHJ', 'BCDF-GHJKL', '', '--------'])
      expect(normalizeUserCode(typed), typed).toBeNull();
  });

  it('a device code is 32 random bytes in base64url', () => {
    const code = newDeviceCode();
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(code, 'base64url')).toHaveLength(32);
    expect(newDeviceCode()).not.toBe(code);
  });
});
