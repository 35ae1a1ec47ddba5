import { describe, expect, it } from 'vitest';
import { converter, differenceCiede2000 } from 'culori';
import { seededRng } from '../../shared/rng.js';
import { ciede2000, lightnessBound } from './ciede2000.js';

describe('CIEDE2000', () => {
  it('matches the published test pairs of Sharma, Wu & Dalal (2005)', () => {
    // Pairs 1, 7, 13, 17 and 25 of the paper's 34-pair table: Lab1, Lab2, ΔE00.
    const pairs: Array<[[number, number, number], [number, number, number], number]> = [
      [[50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425],
      [[50, 0, 0], [50, -1, 2], 2.3669],
      [[50, 2.49, -0.001], [50, -2.49, 0.0009], 7.1792],
      [[50, 2.5, 0], [73, 25, -18], 27.1492],
      [[60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644],
    ];
    for (const [p, q, expected] of pairs) {
      expect(ciede2000({ l: p[0], a: p[1], b: p[2] }, { l: q[0], a: q[1], b: q[2] })).toBeCloseTo(expected, 4);
    }
  });

  it('agrees with culori on 2,000 random sRGB pairs (CIELAB under D65, as culori measures)', () => {
    const rng = seededRng('ciede2000');
    const toLab = converter('lab65');
    const reference = differenceCiede2000();
    for (let i = 0; i < 2000; i++) {
      const x = toLab({ mode: 'rgb', r: rng.next(), g: rng.next(), b: rng.next() });
      const y = toLab({ mode: 'rgb', r: rng.next(), g: rng.next(), b: rng.next() });
      expect(ciede2000(x, y)).toBeCloseTo(reference(x, y), 9);
    }
  });

  it('is never below the lightness bound the nearest-name search prunes with (20,000 random pairs, near ones too)', () => {
    const rng = seededRng('ciede2000-bound');
    const toLab = converter('lab65');
    let tight = 0;
    for (let i = 0; i < 20000; i++) {
      const x = toLab({ mode: 'rgb', r: rng.next(), g: rng.next(), b: rng.next() });
      // Half the pairs close together, where the chroma and hue terms are small and the bound is tightest.
      const near = i % 2 === 0;
      const jitter = () => (near ? (rng.next() - 0.5) * 0.1 : rng.next());
      const y = near
        ? toLab({ mode: 'rgb', r: clamp(x.l / 100 + jitter()), g: rng.next(), b: rng.next() })
        : toLab({ mode: 'rgb', r: jitter(), g: rng.next(), b: rng.next() });
      const bound = lightnessBound(x.l, y.l);
      const d = ciede2000(x, y);
      expect(bound).toBeLessThanOrEqual(d + 1e-12);
      if (bound > 0.9 * d) tight++;
    }
    // A bound that is always far below would prune nothing: it is within 10% of the distance for some pairs.
    expect(tight).toBeGreaterThan(100);
  });
});

const clamp = (v: number) => Math.min(1, Math.max(0, v));
