import { describe, expect, it } from 'vitest';
import { beijingToday, usageSummary } from './home-numbers';

const row = (endpoint: string, requests: number, callerErrors: number, serverErrors: number) => ({
  endpoint,
  day: '2026-11-27',
  requests,
  errors: callerErrors + serverErrors,
  callerErrors,
  serverErrors,
  p99: 5,
});

describe('the home page’s numbers', () => {
  it('count the day by Beijing time: 23:30 UTC is already the next day, which began at 00:00 +08:00', () => {
    expect(beijingToday(Date.parse('2026-11-26T23:30:00Z'))).toEqual({
      day: '2026-11-27',
      start: '2026-11-27T00:00:00+08:00',
    });
    expect(beijingToday(Date.parse('2026-11-26T15:59:59Z')).day).toBe('2026-11-26');
  });

  it('sum the day over every endpoint, faults apart from the caller’s errors', () => {
    const s = usageSummary([row('/api/holiday', 8, 1, 1), row('/api/poem', 2, 2, 0)]);
    expect(s).toMatchObject({ requests: 10, callerErrors: 3, serverErrors: 1, faultRate: 0.1 });
    expect(s.byEndpoint.map((t) => t.endpoint)).toEqual(['/api/holiday', '/api/poem']);
    expect(usageSummary([])).toMatchObject({ requests: 0, faultRate: 0 });
  });
});
