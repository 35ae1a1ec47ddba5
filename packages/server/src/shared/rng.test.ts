import { describe, expect, it } from 'vitest';
import { pickWeighted, rngFor, secureRng, seededRng, Weighted } from './rng.js';

describe('rng', () => {
  it('repeats a sequence for the same seed and differs for another', () => {
    const a = Array.from(
      { length: 5 },
      (
        (r) => () =>
          r.int(1000)
      )(seededRng('tianji')),
    );
    const b = Array.from(
      { length: 5 },
      (
        (r) => () =>
          r.int(1000)
      )(seededRng('tianji')),
    );
    const c = Array.from(
      { length: 5 },
      (
        (r) => () =>
          r.int(1000)
      )(seededRng('other')),
    );
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });

  it('spreads over the whole range', () => {
    const r = seededRng('spread');
    const seen = new Set(Array.from({ length: 2000 }, () => r.int(10)));
    expect(seen.size).toBe(10);
  });

  it('is secure (unseeded) without a seed', () => {
    expect(rngFor().seeded).toBe(false);
    expect(rngFor('x').seeded).toBe(true);
  });

  it('draws secure integers over the whole range, and rejects what randomInt rejects', () => {
    for (const max of [1, 2, 7, 1000, 3_990_000_000, 2 ** 32, 2 ** 40]) {
      for (let i = 0; i < 200; i++) {
        const n = secureRng.int(max);
        expect(Number.isInteger(n) && n >= 0 && n < max, `${n} of ${max}`).toBe(true);
      }
    }
    const seen = new Set(Array.from({ length: 2000 }, () => secureRng.int(10)));
    expect(seen.size).toBe(10);
    // Unbiased: 3 divides 2^32 unevenly, yet each value has its third (±5 % over 60,000 draws).
    const counts = [0, 0, 0];
    for (let i = 0; i < 60_000; i++) counts[secureRng.int(3)]++;
    for (const c of counts) expect(Math.abs(c - 20_000)).toBeLessThan(1000);
    expect(() => secureRng.int(0)).toThrow(RangeError);
    expect(() => secureRng.int(2.5)).toThrow();
    for (let i = 0; i < 1000; i++) {
      const x = secureRng.next();
      expect(x >= 0 && x < 1).toBe(true);
    }
  });

  it('prepares a weighted list that draws what pickWeighted draws', () => {
    const items: [string, number][] = [
      ['a', 5],
      ['b', 0.5],
      ['c', 30],
      ['d', 1],
      ['e', 12.25],
    ];
    const list = new Weighted(items);
    const r1 = seededRng('w');
    const r2 = seededRng('w');
    for (let i = 0; i < 5000; i++) expect(list.pick(r1)).toBe(pickWeighted(r2, items));
    expect(new Weighted([['only', 1]]).pick(secureRng)).toBe('only');
  });
});
