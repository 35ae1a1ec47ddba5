import { describe, expect, it } from 'vitest';
import { fnv1a, pickForDay } from './pick.js';

describe('daily pick', () => {
  const items = Array.from({ length: 200 }, (_, i) => i);

  it('gives everyone the same item for a date and usually another item the next day', () => {
    expect(pickForDay(items, '2026-11-21', 'jokes')).toBe(pickForDay(items, '2026-11-21', 'jokes'));
    const days = Array.from({ length: 30 }, (_, d) =>
      pickForDay(items, `2026-11-${String(d + 1).padStart(2, '0')}`, 'jokes'),
    );
    expect(new Set(days).size).toBeGreaterThan(20);
  });

  it('separates libraries by salt and handles an empty library', () => {
    expect(fnv1a('a')).not.toBe(fnv1a('b'));
    expect(pickForDay([], '2026-11-21', 'x')).toBeUndefined();
  });
});
