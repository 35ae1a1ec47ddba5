import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { KeyQuota } from '../src/public/keys/quota.js';

const quiet = pino({ level: 'silent' });
/** 2026-11-27 15:59:30 UTC = 23:59:30 Beijing: the minute and the Beijing day both turn over 30 s later. */
const BEFORE_MIDNIGHT = Date.UTC(2026, 10, 27, 15, 59, 30);

describe('per-key quota windows (in this instance’s memory)', () => {
  it('a new minute starts the minute over and keeps the day; Beijing midnight starts the day over', () => {
    const q = new KeyQuota(quiet);
    const limits = { perMinute: 2, perDay: 3 };
    const take = (now: number) => q.take('k1', limits, now) as Exclude<ReturnType<KeyQuota['take']>, Promise<unknown>>;
    expect(take(BEFORE_MIDNIGHT - 60_000)).toMatchObject({ allowed: true, window: 'minute', limit: 2, remaining: 1 });
    expect(take(BEFORE_MIDNIGHT - 60_000)).toMatchObject({ allowed: true, remaining: 0 });
    // The minute is used up: refused, and the refusal does not count against the day.
    expect(take(BEFORE_MIDNIGHT - 60_000)).toMatchObject({ allowed: false, window: 'minute', reset: 30 });
    // The next minute: one left of the day, which is now the nearer limit.
    expect(take(BEFORE_MIDNIGHT)).toMatchObject({ allowed: true, window: 'day', limit: 3, remaining: 0 });
    expect(take(BEFORE_MIDNIGHT + 1000)).toMatchObject({ allowed: false, window: 'day', reset: 29 });
    // 00:00 Beijing (16:00 UTC): a new day and a new minute.
    expect(take(BEFORE_MIDNIGHT + 30_000)).toMatchObject({ allowed: true, window: 'minute', remaining: 1 });
    // Another key has its own counts.
    expect(q.take('k2', limits, BEFORE_MIDNIGHT)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('a key without limits (both 0) is never refused and reports no window', () => {
    const q = new KeyQuota(quiet);
    for (let i = 0; i < 1000; i++)
      expect(q.take('free', { perMinute: 0, perDay: 0 }, BEFORE_MIDNIGHT)).toMatchObject({ allowed: true, limit: 0 });
  });
});
