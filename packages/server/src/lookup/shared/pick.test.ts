import { describe, expect, it } from 'vitest';
import { answersPerDay, fnv1a, pickForDay } from './pick.js';

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

describe('answers per day', () => {
  it('makes one shared, frozen answer per item and day, and a new one for another day or item', () => {
    let made = 0;
    const answerOf = answersPerDay((item: { id: number }, date: string) => ({ ...item, date, n: ++made }));
    const a = { id: 1 };
    const b = { id: 2 };
    const first = answerOf(a, '2026-11-21');
    expect(answerOf(a, '2026-11-21')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(answerOf(a, '2026-11-22')).toMatchObject({ id: 1, date: '2026-11-22' });
    expect(answerOf(b, '2026-11-22')).toMatchObject({ id: 2, date: '2026-11-22' });
    expect(answerOf(a, '2026-11-21')).toMatchObject({ id: 1, date: '2026-11-21' });
    expect(made).toBe(4);
  });
});
