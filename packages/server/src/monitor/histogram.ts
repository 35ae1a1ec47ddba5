/**
 * A fixed-bucket latency histogram: cheap to record (one array increment), mergeable across flushes and
 * instances, and good enough for percentiles (each bucket is ~12% wide, from 0.05 ms to about 60 s).
 */
const FIRST_MS = 0.05;
const GROWTH = 1.12;
export const BUCKET_COUNT = 125;

export function bucketOf(ms: number): number {
  if (!(ms > FIRST_MS)) return 0;
  return Math.min(BUCKET_COUNT - 1, Math.ceil(Math.log(ms / FIRST_MS) / Math.log(GROWTH)));
}

/** Upper bound (ms) of a bucket. */
export const bucketUpperMs = (i: number) => FIRST_MS * GROWTH ** i;

export function emptyBuckets(): number[] {
  return new Array<number>(BUCKET_COUNT).fill(0);
}

export function mergeBuckets(a: number[], b: number[]): number[] {
  const out = emptyBuckets();
  for (let i = 0; i < BUCKET_COUNT; i++) out[i] = (a[i] ?? 0) + (b[i] ?? 0);
  return out;
}

/** The q-th quantile (0–1) in ms, as the upper bound of the bucket it falls in; 0 when empty. */
export function quantile(buckets: number[], q: number): number {
  const total = buckets.reduce((s, n) => s + n, 0);
  if (total === 0) return 0;
  const rank = Math.ceil(q * total);
  let seen = 0;
  for (let i = 0; i < buckets.length; i++) {
    seen += buckets[i];
    if (seen >= rank) return Math.round(bucketUpperMs(i) * 100) / 100;
  }
  return Math.round(bucketUpperMs(buckets.length - 1) * 100) / 100;
}
