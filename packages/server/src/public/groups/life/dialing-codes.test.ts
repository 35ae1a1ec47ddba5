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

  it('finds a country by its common alternative names, Chinese and English', () => {
    const iso = (k: string) => searchDialingCodes(all, k).map((c) => c.iso2);
    expect(iso('印度尼西亚')).toEqual(['ID']);
    expect(iso('印尼')).toEqual(['ID']);
    expect(iso('南韩')).toEqual(['KR']);
    expect(iso('北韩')).toEqual(['KP']);
    expect(iso('美利坚合众国')).toEqual(['US']);
    expect(iso('刚果金')).toEqual(['CD']);
    expect(iso('Ivory Coast')).toEqual(['CI']);
    expect(iso("cote d'ivoire")).toEqual(['CI']);
    expect(iso('United Kingdom')).toEqual(['GB']);
    expect(iso('U.S.A.')[0]).toBe('US');
    expect(iso('usa')).toEqual(['US']);
    expect(iso('IDN')).toEqual(['ID']);
    expect(iso('Czechia')).toEqual(['CZ']);
    expect(iso('russia')).toEqual(['RU']);
    // the exact name first, then countries whose names merely contain it
    expect(iso('Congo').slice(0, 2).sort()).toEqual(['CD', 'CG']);
    expect(iso('几内亚')[0]).toBe('GN');
  });

  it('puts the country itself first when searched by its own Chinese or English name', () => {
    for (const c of all) {
      expect(searchDialingCodes(all, c.name)[0].iso2, c.name).toBe(c.iso2);
      expect(searchDialingCodes(all, c.nameEn)[0].iso2, c.nameEn).toBe(c.iso2);
    }
  });

  it('answers nothing for nonsense', () => {
    expect(searchDialingCodes(all, '不存在的国家')).toEqual([]);
  });
});
