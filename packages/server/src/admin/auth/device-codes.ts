import { randomBytes } from 'node:crypto';

/**
 * The two codes of a device sign-in (RFC 8628 §6.1): the device code, a 256-bit secret only the device holds, and
 * the user code a person types into a browser, short and hard to mistype. Pure functions, no server.
 */

/** Consonants only: no vowels (no words, rude or otherwise), no digits or letters that look alike (0/O, 1/I/L…). */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
export const USER_CODE_LENGTH = 8;

/** A new user code of eight letters, uniformly drawn (bytes beyond a multiple of 20 are skipped, not folded). */
export function newUserCode(): string {
  const n = USER_CODE_ALPHABET.length;
  const limit = 256 - (256 % n);
  let code = '';
  while (code.length < USER_CODE_LENGTH)
    for (const b of randomBytes(USER_CODE_LENGTH * 2)) {
      if (b < limit && code.length < USER_CODE_LENGTH) code += USER_CODE_ALPHABET[b % n];
    }
  return code;
}

/** As shown and typed: `BCDF-GHJK`. */
export const formatUserCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

/**
 * What a person typed, as stored (`bcdf ghjk`, `BCDF-GHJK`, `ｂｃｄｆ－ｇｈｊｋ` all give `BCDFGHJK`), or null when it cannot be
 * a user code at all.
 *
 * @example normalizeUserCode(' bcdf-ghjk ') // 'BCDFGHJK'
 */
export function normalizeUserCode(input: string): string | null {
  const code = input
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[\s\-‐‑‒–—−]/g, '');
  if (code.length !== USER_CODE_LENGTH) return null;
  for (const c of code) if (!USER_CODE_ALPHABET.includes(c)) return null;
  return code;
}

/** A new device code: 32 random bytes, base64url (43 characters). */
export const newDeviceCode = () => randomBytes(32).toString('base64url');
