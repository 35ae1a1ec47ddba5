import { describe, expect, it } from 'vitest';
import { rngFor, seededRng } from './rng.js';

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
});
