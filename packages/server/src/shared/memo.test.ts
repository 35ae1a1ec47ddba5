import { describe, expect, it } from 'vitest';
import { answersPerItem, perObject, recentAnswers } from './memo.js';

describe('answersPerItem', () => {
  it('makes one shared, frozen answer per item and day, and a new one for another day or item', () => {
    let made = 0;
    const answerOf = answersPerItem((item: { id: number }, date: string) => ({ ...item, date, n: ++made }));
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

describe('perObject', () => {
  it('makes a value once per owner and key, and again for another owner or key', () => {
    let made = 0;
    const memo = perObject<object, number>();
    const a = {};
    const b = {};
    expect(memo(a, 'x', () => ++made)).toBe(1);
    expect(memo(a, 'x', () => ++made)).toBe(1);
    expect(memo(a, 'y', () => ++made)).toBe(2);
    expect(memo(b, 'x', () => ++made)).toBe(3);
    expect(made).toBe(3);
  });
});

describe('recentAnswers', () => {
  it('keeps the last `limit` answers, dropping the oldest first, and shares each frozen', () => {
    const made: string[] = [];
    const square = recentAnswers(
      2,
      (n: number) => String(n),
      (n: number) => {
        made.push(String(n));
        return { n: n * n };
      },
    );
    const four = square(2);
    expect(square(2)).toBe(four);
    expect(Object.isFrozen(four)).toBe(true);
    square(3);
    square(4); // the third key: 2, the oldest, is dropped
    square(3);
    square(2);
    expect(made).toEqual(['2', '3', '4', '2']);
  });
});
