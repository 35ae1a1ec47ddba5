import { describe, expect, it } from 'vitest';
import { userCodeOf } from './device-approval';

describe('userCodeOf: the device code as typed or pasted', () => {
  it('reads lower case, spaces, dashes and full-width letters as the server prints it', () => {
    expect(userCodeOf('bcdf ghjk')).toBe('BCDF-GHJK');
    expect(userCodeOf('BCDF-GHJK')).toBe('BCDF-GHJK');
    expect(userCodeOf('ｂｃｄｆ－ｇｈｊｋ')).toBe('BCDF-GHJK');
    expect(userCodeOf(' bcdfghjk ')).toBe('BCDF-GHJK');
  });
  it('keeps letters only, at most eight, and adds the dash once past four', () => {
    expect(userCodeOf('bcd')).toBe('BCD');
    expect(userCodeOf('bcdf')).toBe('BCDF');
    expect(userCodeOf('bcdfg')).toBe('BCDF-G');
    expect(userCodeOf('bcdf-ghjk-lmnp')).toBe('BCDF-GHJK');
    expect(userCodeOf('12<script>')).toBe('SCRI-PT');
  });
});
