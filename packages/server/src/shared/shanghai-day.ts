/** Today's date in Asia/Shanghai as YYYY-MM-DD: "daily" answers and holiday distances turn over at Beijing midnight. */
export function todayInShanghai(now?: Date): string {
  if (now) return new Date(now.getTime() + 8 * 3600_000).toISOString().slice(0, 10);
  // Asked on every public request (usage counts, cache keys): recomputed at most once a second.
  const t = Date.now();
  if (t - todayCache.at >= 1000 || t < todayCache.at)
    todayCache = { at: t, day: new Date(t + 8 * 3600_000).toISOString().slice(0, 10) };
  return todayCache.day;
}
let todayCache = { at: -Infinity, day: '' };
