import { describe, expect, it } from 'vitest';
import { bucketOf, bucketUpperMs, emptyBuckets, mergeBuckets, quantile } from './histogram.js';

describe('latency histogram', () => {
  it('puts a latency in a bucket whose bound is within 12% above it', () => {
    for (const ms of [0.3, 1, 7.5, 42, 250, 3000]) {
      const upper = bucketUpperMs(bucketOf(ms));
      expect(upper).toBeGreaterThanOrEqual(ms);
      expect(upper).toBeLessThanOrEqual(ms * 1.13);
    }
  });

  it('reports p50 and p99 of a known distribution', () => {
    const b = emptyBuckets();
    for (let i = 0; i < 99; i++) b[bucketOf(2)]++;
    b[bucketOf(500)]++;
    expect(quantile(b, 0.5)).toBeCloseTo(bucketUpperMs(bucketOf(2)), 2);
    expect(quantile(b, 0.99)).toBeCloseTo(bucketUpperMs(bucketOf(2)), 2);
    expect(quantile(b, 1)).toBeGreaterThanOrEqual(500);
    expect(quantile(emptyBuckets(), 0.99)).toBe(0);
  });

  it('merges flushes by adding counts', () => {
    const a = emptyBuckets();
    a[3] = 2;
    const b = emptyBuckets();
    b[3] = 5;
    expect(mergeBuckets(a, b)[3]).toBe(7);
  });
});
