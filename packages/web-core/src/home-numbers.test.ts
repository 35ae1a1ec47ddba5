import { describe, expect, it } from 'vitest';
import {
  beijingToday,
  callerName,
  failedSignInsFilter,
  loginLogFilterOfQuery,
  topCallers,
  usageSummary,
} from './home-numbers';

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

  it('list the five busiest callers by name and prefix, everyone without a key as one anonymous caller', () => {
    const caller = (i: number, requests: number) => ({
      apiKeyId: i ? `00000000-0000-4000-8000-00000000000${i}` : null,
      name: i ? `合作方${i}` : null,
      prefix: i ? `ab12cd3${i}` : null,
      requests,
      callerErrors: 1,
      serverFaults: 0,
    });
    const top = topCallers([caller(1, 3), caller(0, 50), caller(2, 9), caller(3, 1), caller(4, 7), caller(5, 2)]);
    expect(top.map((c) => c.requests)).toEqual([50, 9, 7, 3, 2]);
    expect(top.map((c) => callerName(c, '匿名调用'))).toEqual([
      '匿名调用',
      '合作方2 tj_ab12cd32…',
      '合作方4 tj_ab12cd34…',
      '合作方1 tj_ab12cd31…',
      '合作方5 tj_ab12cd35…',
    ]);
  });

  it('open the login log on the very rows the failed sign-ins tile counts: today’s failed sign-ins', () => {
    expect(failedSignInsFilter(beijingToday(Date.parse('2026-11-26T23:30:00Z')))).toEqual({
      event: 'login',
      result: 'failure',
      from: '2026-11-27',
      to: '2026-11-27',
    });
  });

  it('read the login log’s filter back from a link, ignoring what the log does not offer', () => {
    const filter = failedSignInsFilter({ day: '2026-11-27' });
    expect(loginLogFilterOfQuery({ ...filter })).toEqual(filter);
    expect(
      loginLogFilterOfQuery({ event: 'fly', result: 'maybe', from: 'yesterday', to: ['2026-11-27'], ip: '1.2.3.4' }),
    ).toEqual({});
    expect(loginLogFilterOfQuery({ result: 'success', to: '2026-11-27' })).toEqual({
      result: 'success',
      to: '2026-11-27',
    });
  });
});
