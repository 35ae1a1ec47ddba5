import { ALL_POINT_BITS } from './points.js';

/**
 * Masks are 64-bit. The super administrator's all-ones mask is stored as signed -1 and shown outward as
 * 2^63-1. JavaScript's `&`/`|` work on 32 bits, so every combination here goes through BigInt.
 */
export const SUPER_MASK = -1;
export const NORMALIZED_SUPER_MASK = 9223372036854775807n;

export type Mask = number | bigint;

const isAllOnes = (m: Mask) => m === -1 || m === -1n || BigInt(m) === NORMALIZED_SUPER_MASK;

/** Outward form of a mask: negative → 9223372036854775807 (a bigint, serialised as exact digits); others unchanged. */
export function normalizeMask(mask: Mask): number | bigint {
  return BigInt(mask) < 0n ? NORMALIZED_SUPER_MASK : Number(mask);
}

/** Bitwise OR over several masks; any all-ones mask makes the result all-ones (-1). */
export function orMasks(masks: Iterable<Mask>): number {
  let acc = 0n;
  for (const m of masks) {
    if (isAllOnes(m)) return SUPER_MASK;
    acc |= BigInt(m);
  }
  return Number(acc);
}

/**
 * The contract's check: passes when the mask is -1 or 2^63-1, or when every required bit is set.
 * `required` = 0 (nothing declared) always passes.
 */
export function hasBits(mask: Mask, required: Mask): boolean {
  if (isAllOnes(mask)) return true;
  const need = BigInt(required);
  return (BigInt(mask) & need) === need;
}

/**
 * Reads a mask sent by a client (a grant): -1 and 2^63-1 mean all-ones; otherwise an integer made only of the ten points.
 * Returns undefined when the value is not allowed.
 */
export function parseGrantBits(v: unknown): number | undefined {
  let b: bigint;
  try {
    if (typeof v === 'number' && !Number.isInteger(v)) return undefined;
    if (typeof v !== 'number' && typeof v !== 'string' && typeof v !== 'bigint') return undefined;
    if (typeof v === 'string' && !/^-?\d{1,19}$/.test(v.trim())) return undefined;
    b = BigInt(typeof v === 'string' ? v.trim() : v);
  } catch {
    return undefined;
  }
  if (b === -1n || b === NORMALIZED_SUPER_MASK) return SUPER_MASK;
  if (b < 0n || (b & ~BigInt(ALL_POINT_BITS)) !== 0n) return undefined;
  return Number(b);
}
