/**
 * The permission mask rules the server applies, for showing and hiding controls (the server still decides).
 * Masks are 64-bit: the super administrator's all-ones mask arrives as 9223372036854775807, which `JSON.parse`
 * turns into the double 9223372036854775808 — so any mask that is negative or not a safe integer reads as
 * all-ones (the ten points live in bits 0–9; the server never sends another large value). Combining uses BigInt
 * because JavaScript's `&` truncates to 32 bits.
 */

import { PERMISSION_POINTS } from './generated/admin-api.js';

/** The ten permission points come from the server's catalogue, generated (`icon` is a lucide icon name). */
export { PERMISSION_POINTS };

export type PermissionName = (typeof PERMISSION_POINTS)[number]['value'];
export type PermissionPoint = (typeof PERMISSION_POINTS)[number];

/** Bit value by name: `PERMISSION.EDIT === 4`. */
export const PERMISSION = Object.fromEntries(PERMISSION_POINTS.map((p) => [p.value, p.bits])) as Record<
  PermissionName,
  number
>;

/** 2^63-1, the outward form of the super administrator's mask. */
export const ALL_ONES = (1n << 63n) - 1n;

/** Reads a mask as the server sends it (number, digit string or bigint) into a bigint; all-ones stays ALL_ONES. */
export function toMask(v: number | string | bigint | null | undefined): bigint {
  if (v === null || v === undefined) return 0n;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return 0n;
    if (v < 0 || !Number.isSafeInteger(v)) return ALL_ONES;
    return BigInt(v);
  }
  let b: bigint;
  try {
    b = BigInt(typeof v === 'string' ? v.trim() : v);
  } catch {
    return 0n;
  }
  return b < 0n || b >= ALL_ONES ? ALL_ONES : b;
}

/** OR of the named points (or raw bit values). */
export function bitsOf(bits: ReadonlyArray<PermissionName | number>): bigint {
  let m = 0n;
  for (const b of bits) m |= BigInt(typeof b === 'number' ? b : PERMISSION[b]);
  return m;
}

/** The server's check: all-ones passes; otherwise every required bit must be set. Nothing required passes. */
export function hasBits(mask: number | string | bigint, required: bigint): boolean {
  const m = toMask(mask);
  if (m === ALL_ONES) return true;
  return (m & required) === required;
}

/** The points set in a mask, in point order (for showing a grant). */
export function pointsIn(mask: number | string | bigint): PermissionName[] {
  const m = toMask(mask);
  return PERMISSION_POINTS.filter((p) => m === ALL_ONES || (m & BigInt(p.bits)) !== 0n).map((p) => p.value);
}
