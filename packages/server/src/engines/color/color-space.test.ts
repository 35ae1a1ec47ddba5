import { describe, expect, it } from 'vitest';
import { seededRng } from '../../shared/rng.js';
import { oneDecimal, round } from './color-space.js';

describe('oneDecimal', () => {
  it('writes exactly what String(round(n, 1)) writes (the hsl() text of random colours stays the same)', () => {
    const rng = seededRng('one-decimal');
    const values = [0, -0, 0.04, -0.04, 0.05, -0.05, 0.95, 359.96, 100, 99.95, -12.34, 1e15, 2 ** 53, Number.MAX_VALUE];
    // Every entry of the table of 0.0 … 360.0, and the values either side of its rounding edges.
    for (let t = 0; t <= 3601; t++) values.push(t / 10, t / 10 + 0.0499, t / 10 - 0.05, t / 10 + 0.05);
    for (let i = 0; i < 100_000; i++) values.push((rng.int(2_000_000) - 1_000_000) / rng.int(1000 + 1));
    for (const n of values) expect(oneDecimal(n), String(n)).toBe(String(round(n, 1)));
  });
});
