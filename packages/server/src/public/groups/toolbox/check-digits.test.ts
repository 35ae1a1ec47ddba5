import { describe, expect, it } from 'vitest';
import { gs1CheckDigit, isValidGs1, isbn10CheckChar, upceCheckDigit, upceToUpca } from './check-digits.js';

describe('GS1 check digits against real codes', () => {
  it('EAN-13: 4006381333931 (the standard textbook code) and the ISBN-13 9780306406157', () => {
    expect(gs1CheckDigit('400638133393')).toBe(1);
    expect(gs1CheckDigit('978030640615')).toBe(7);
    expect(isValidGs1('4006381333931')).toBe(true);
    expect(isValidGs1('4006381333934')).toBe(false);
  });

  it('UPC-A 036000291452, EAN-8 96385074 and ITF-14 15400141288763', () => {
    expect(gs1CheckDigit('03600029145')).toBe(2);
    expect(gs1CheckDigit('9638507')).toBe(4);
    expect(gs1CheckDigit('1540014128876')).toBe(3);
  });

  it('a check digit of 0 stays 0 (sum already a multiple of 10)', () => {
    expect(gs1CheckDigit('000000000000')).toBe(0);
    expect(isValidGs1('0000000000000')).toBe(true);
  });

  it('ISBN-10 check character, including X', () => {
    expect(isbn10CheckChar('030640615')).toBe('2'); // 0-306-40615-2
    expect(isbn10CheckChar('080442957')).toBe('X'); // 0-8044-2957-X
  });

  it('UPC-E expands to its UPC-A and shares its check digit', () => {
    expect(upceToUpca('0425261')).toBe('04210000526'); // UPC-E 04252614 = UPC-A 042100005264
    expect(upceCheckDigit('0425261')).toBe(4);
    expect(upceToUpca('0123456')).toBe('01234500006'); // UPC-E 01234565 = UPC-A 012345000065
    expect(upceCheckDigit('0123456')).toBe(5);
    expect(upceToUpca('0123453')).toBe('01230000045'); // last digit 3: manufacturer 3 digits, item 2
    expect(upceToUpca('0123454')).toBe('01234000005'); // last digit 4: manufacturer 4 digits, item 1
  });
});
