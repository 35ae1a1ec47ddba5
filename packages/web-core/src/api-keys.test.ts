import { describe, expect, it } from 'vitest';
import { keyChanges, lastDays, limitUse, listText, parseList, requestsOn, shanghaiDay, shownPrefix } from './api-keys';

describe('API key helpers', () => {
  it('shows a key by its prefix, never more', () => {
    expect(shownPrefix({ prefix: 'ab12cd34' })).toBe('tj_ab12cd34…');
  });

  it('counts days in Beijing time: 16:30 UTC is already the next day there', () => {
    expect(shanghaiDay(Date.parse('2026-11-23T16:30:00Z'))).toBe('2026-11-24');
    expect(lastDays(7, Date.parse('2026-11-23T16:30:00Z'))).toEqual({ from: '2026-11-18', to: '2026-11-24' });
  });

  it('sums a key’s requests of one day over its endpoints, and measures them against its own limit only', () => {
    const row = (endpoint: string, day: string, requests: number) => ({
      endpoint,
      day,
      requests,
      errors: 0,
      callerErrors: 0,
      serverErrors: 0,
      p99: 1,
    });
    const rows = [row('/api/a', '2026-11-24', 30), row('/api/b', '2026-11-24', 50), row('/api/a', '2026-11-23', 7)];
    expect(requestsOn(rows, '2026-11-24')).toBe(80);
    expect(limitUse(80, 100)).toEqual({ used: 80, limit: 100, ratio: 0.8 });
    expect(limitUse(80, null)).toBeNull();
  });

  it('reads origins and addresses one a line or separated by commas; none means no restriction', () => {
    expect(parseList('https://a.example\nhttps://b.example, 10.0.0.0/8，10.0.0.0/8 ')).toEqual([
      'https://a.example',
      'https://b.example',
      '10.0.0.0/8',
    ]);
    expect(parseList('  \n ')).toBeNull();
    expect(listText(['a', 'b'])).toBe('a\nb');
    expect(listText(null)).toBe('');
  });

  it('a form sends what it gives on creation, and only what changed on an edit', () => {
    const form = { name: 'a', note: null, perDay: 100, origins: ['https://x.example'], addresses: null };
    expect(keyChanges(form)).toEqual({ name: 'a', perDay: 100, origins: ['https://x.example'] });
    const before = { name: 'a', note: null, perDay: 50, origins: ['https://x.example'], addresses: ['10.0.0.0/8'] };
    expect(keyChanges(form, before)).toEqual({ perDay: 100, addresses: null });
  });
});
