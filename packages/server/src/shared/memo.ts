/**
 * Work kept per object while the object lives: per data set, per content snapshot (an edit makes a new snapshot,
 * with new items), per picked item. Nothing here outlives what it was worked out from.
 */

/**
 * `make()` once per owner object and key: `const jobsFor = perObject<string[], string[]>()`, then
 * `jobsFor(jobs, education, () => jobs.filter(…))`.
 */
export function perObject<O extends object, V>() {
  const byOwner = new WeakMap<O, Map<string, V>>();
  return (owner: O, key: string, make: () => V): V => {
    let byKey = byOwner.get(owner);
    if (!byKey) byOwner.set(owner, (byKey = new Map()));
    let value = byKey.get(key);
    if (value === undefined) byKey.set(key, (value = make()));
    return value;
  };
}

/**
 * An item's answer, `make(item, variant)`, as one frozen object that every caller asking for the same item and
 * variant (a date, or none) shares, so a route with `stableData` serialises it once. Each item keeps the answer of
 * the last variant asked only, so what is kept is bounded by the items, whatever variants callers ask for.
 */
export function answersPerItem<T extends object, A extends object>(make: (item: T, variant: string) => A) {
  const answers = new WeakMap<T, { variant: string; answer: Readonly<A> }>();
  return (item: T, variant = ''): Readonly<A> => {
    const last = answers.get(item);
    if (last?.variant === variant) return last.answer;
    const answer = Object.freeze(make(item, variant));
    answers.set(item, { variant, answer });
    return answer;
  };
}

/**
 * `make(...args)` kept for the last `limit` keys asked (`keyOf(...args)`; the oldest dropped first), frozen, so
 * every caller asking the same shares one answer and what is held stays bounded. A `make` that throws keeps nothing.
 */
export function recentAnswers<Args extends unknown[], A extends object>(
  limit: number,
  keyOf: (...args: Args) => string,
  make: (...args: Args) => A,
) {
  const recent = new Map<string, Readonly<A>>();
  return (...args: Args): Readonly<A> => {
    const key = keyOf(...args);
    let answer = recent.get(key);
    if (!answer) {
      answer = Object.freeze(make(...args));
      if (recent.size >= limit) recent.delete(recent.keys().next().value as string);
      recent.set(key, answer);
    }
    return answer;
  };
}
