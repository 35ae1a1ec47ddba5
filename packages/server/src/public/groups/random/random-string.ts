import { paramError } from '../../../errors.js';
import type { Rng } from '../../../shared/rng.js';

export const CHARSETS = {
  alnum: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  alpha: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
  lower: 'abcdefghijklmnopqrstuvwxyz',
  upper: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  numeric: '0123456789',
  hex: '0123456789abcdef',
  symbols: '!@#$%^&*()-_=+[]{};:,.<>/?~',
} as const;

export type Charset = keyof typeof CHARSETS;

/** The alphabet to draw from: `custom` characters (deduplicated, by code point) win over a named charset. */
export function alphabetOf(charset: Charset, custom?: string): string[] {
  if (custom === undefined) return [...CHARSETS[charset]];
  const chars = [...new Set([...custom])];
  if (chars.length < 2) throw paramError('custom', '至少需要 2 个不同的字符', custom);
  return chars;
}

/** Uniform draw of each character (the rng's int is unbiased), so every string of the alphabet is equally likely. */
export function randomString(rng: Rng, alphabet: string[], length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[rng.int(alphabet.length)];
  return out;
}
