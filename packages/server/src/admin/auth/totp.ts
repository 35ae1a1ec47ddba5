import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { sha256 } from './tokens.js';

/** RFC 6238 with the parameters every authenticator app supports: SHA-1, 6 digits, 30-second steps. */
const PERIOD = 30;
const ISSUER = '天机 Tianji';
/** Codes one step either side are accepted (±30 s of clock skew). */
export const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;

const totp = (secret: string, label = '') =>
  new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(secret) });

/** A new random secret (160 bits, base32). */
export const newTotpSecret = () => new Secret({ size: 20 }).base32;

/** The otpauth:// URI authenticator apps read from the QR code. */
export const totpUri = (secret: string, username: string) => totp(secret, username).toString();

/** The time step a 6-digit code is valid for at `now` (ms), within the window; null when it matches none. */
export function totpStep(secret: string, code: string, now: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secret).validate({ token: code, timestamp: now, window: TOTP_WINDOW });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD) + delta;
}

/** The code for `now` (ms): for tests and the CLI. */
export const totpCode = (secret: string, now: number) => totp(secret).generate({ timestamp: now });

// Crockford-style base32 without look-alikes (no I, L, O, U).
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** Ten single-use recovery codes, `xxxxx-xxxxx` (50 random bits each). */
export function newRecoveryCodes(): string[] {
  const one = () => Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const c = one();
    return `${c.slice(0, 5)}-${c.slice(5)}`;
  });
}

/** Recovery codes are compared case-insensitively, with or without the dash and spaces. */
export const recoveryCodeHash = (code: string) => sha256(code.replace(/[\s-]/g, '').toLowerCase());

/** A recovery code as typed (not a 6-digit TOTP code). */
export const looksLikeRecoveryCode = (code: string) => /^[0-9a-z]{10}$/i.test(code.replace(/[\s-]/g, ''));

/** Whether a typed second-step code is taken as a recovery code (six digits are always a TOTP code). */
export const isRecoveryCodeInput = (code: string) => looksLikeRecoveryCode(code.trim()) && !/^\d{6}$/.test(code.trim());
