/**
 * Check digits of retail and logistics barcodes. Pure functions over digit strings.
 */

/**
 * GS1 modulo-10 check digit (EAN-13, EAN-8, UPC-A, ITF-14, GTIN, ISBN-13): from the rightmost data digit leftwards
 * the weights are 3, 1, 3, 1, …; the check digit brings the weighted sum up to a multiple of 10.
 * @example gs1CheckDigit('400638133393') === 1 // 4006381333931
 */
export function gs1CheckDigit(data: string): number {
  let sum = 0;
  for (let i = 0; i < data.length; i++) {
    const digit = data.charCodeAt(data.length - 1 - i) - 48;
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

/** true when the last digit is the GS1 check digit of the others. */
export const isValidGs1 = (code: string) =>
  /^\d{2,}$/.test(code) && gs1CheckDigit(code.slice(0, -1)) === Number(code.at(-1));

/**
 * ISBN-10 check character: weights 10 … 2 over the nine data digits, check = (11 − sum mod 11) mod 11, with 10 written X.
 * @example isbn10CheckChar('030640615') === '2' // 0-306-40615-2
 */
export function isbn10CheckChar(data: string): string {
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (data.charCodeAt(i) - 48) * (10 - i);
  const check = (11 - (sum % 11)) % 11;
  return check === 10 ? 'X' : String(check);
}

/**
 * The UPC-A number a UPC-E (zero-suppressed) code stands for. `upce` is the number system digit (0 or 1) and the six
 * data digits, without check digit. The expansion depends on the last data digit (GS1 General Specifications 5.2.2.4.2).
 * @example upceToUpca('0425261') === '04210000526' // UPC-E 04252614 ↔ UPC-A 042100005264
 */
export function upceToUpca(upce: string): string {
  const ns = upce[0];
  const [d1, d2, d3, d4, d5, d6] = upce.slice(1);
  switch (d6) {
    case '0':
    case '1':
    case '2':
      return `${ns}${d1}${d2}${d6}0000${d3}${d4}${d5}`;
    case '3':
      return `${ns}${d1}${d2}${d3}00000${d4}${d5}`;
    case '4':
      return `${ns}${d1}${d2}${d3}${d4}00000${d5}`;
    default:
      return `${ns}${d1}${d2}${d3}${d4}${d5}0000${d6}`;
  }
}

/** UPC-E check digit: the GS1 check digit of the UPC-A number it expands to. */
export const upceCheckDigit = (upce: string) => gs1CheckDigit(upceToUpca(upce));
