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

/**
 * `make(item, date)` once per item and date, as a frozen object that every caller that day shares, so a route with
 * `stableData` serialises it once. Items are a content snapshot's (an edit makes a new snapshot, so new items);
 * each item keeps its last date's answer.
 */
export function answersPerDay<T extends object, A extends object>(make: (item: T, date: string) => A) {
  const answers = new WeakMap<T, { date: string; answer: Readonly<A> }>();
  return (item: T, date: string): Readonly<A> => {
    const last = answers.get(item);
    if (last?.date === date) return last.answer;
    const answer = Object.freeze(make(item, date));
    answers.set(item, { date, answer });
    return answer;
  };
}
