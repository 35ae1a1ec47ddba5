import { describe, expect, it } from 'vitest';
import { buildDialingCodes, searchDialingCodes } from './dialing-codes.js';

const all = buildDialingCodes();

describe('international dialing codes', () => {
  it('covers the world with Chinese names', () => {
    expect(all.length).toBeGreaterThan(200);
    expect(all.find((c) => c.iso2 === 'CN')).toMatchObject({ name: '中国', code: '86', dial: '+86', iso3: 'CHN' });
  });

  it('finds by Chinese name, English name, ISO code and the code itself', () => {
    expect(searchDialingCodes(all, '日本').map((c) => c.code)).toEqual(['81']);
    expect(searchDialingCodes(all, 'germany').map((c) => c.code)).toEqual(['49']);
    expect(searchDialingCodes(all, 'gb').map((c) => c.code)).toEqual(['44']);
    expect(searchDialingCodes(all, '+33').map((c) => c.iso2)).toEqual(['FR']);
    expect(searchDialingCodes(all, '0086').map((c) => c.iso2)).toEqual(['CN']);
    // +1 is shared by the NANP countries.
    expect(searchDialingCodes(all, '1').map((c) => c.iso2)).toEqual(expect.arrayContaining(['US', 'CA']));
  });

  it('answers nothing for nonsense', () => {
    expect(searchDialingCodes(all, '不存在的国家')).toEqual([]);
  });
});
