import { randomInt } from 'node:crypto';

/** FNV-1a, 32-bit: a stable, well-spread hash so a day's pick is the same on every instance and restart. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * The item of the day: everyone asking about `date` gets the same one (as long as the library is unchanged).
 * `salt` separates libraries so the n-th joke and the n-th riddle are not always picked together.
 */
export function pickForDay<T>(items: readonly T[], date: string, salt: string): T | undefined {
  if (items.length === 0) return undefined;
  return items[fnv1a(`${salt}:${date}`) % items.length];
}

export function pickRandom<T>(items: readonly T[]): T | undefined {
  return items.length ? items[randomInt(items.length)] : undefined;
}
