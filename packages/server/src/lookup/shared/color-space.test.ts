import { describe, expect, it } from 'vitest';
import { seededRng } from './rng.js';
import { oneDecimal, round } from './color-space.js';

describe('oneDecimal', () => {
  it('writes exactly what String(round(n, 1)) writes (the hsl() text of random colours stays the same)', () => {
    const rng = seededRng('one-decimal');
    const values = [0, -0, 0.04, -0.04, 0.05, -0.05, 0.95, 359.96, 100, 99.95, -12.34, 1e15, 2 ** 53, Number.MAX_VALUE];
    for (let i = 0; i < 100_000; i++) values.push((rng.int(2_000_000) - 1_000_000) / rng.int(1000 + 1));
    for (const n of values) expect(oneDecimal(n), String(n)).toBe(String(round(n, 1)));
  });
});
