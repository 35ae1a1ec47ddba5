import { describe, expect, it } from 'vitest';
import { dayRange, niceTicks, seriesOf, totals } from './usage';

const rows = [
  { endpoint: '/api/almanac', day: '2026-01-01', requests: 10, errors: 1, callerErrors: 1, serverErrors: 0, p99: 12 },
  { endpoint: '/api/almanac', day: '2026-01-03', requests: 30, errors: 0, callerErrors: 0, serverErrors: 0, p99: 20 },
  { endpoint: '/api/holiday', day: '2026-01-02', requests: 5, errors: 5, callerErrors: 3, serverErrors: 2, p99: 8 },
  { endpoint: '/api/ip-region', day: '2026-01-02', requests: 1, errors: 0, callerErrors: 0, serverErrors: 0, p99: 3 },
];
const days = dayRange('2026-01-01', '2026-01-03');

describe('usage charts', () => {
  it('covers every day of the period, quiet days included', () => {
    expect(days).toEqual(['2026-01-01', '2026-01-02', '2026-01-03']);
  });

  it('totals per endpoint, busiest first, with caller errors and server faults apart, and worst p99', () => {
    expect(totals(rows)[0]).toEqual({
      endpoint: '/api/almanac',
      requests: 40,
      errors: 1,
      errorRate: 0.025,
      callerErrors: 1,
      serverErrors: 0,
      faultRate: 0,
      p99: 20,
    });
    expect(totals(rows)[1]).toMatchObject({ endpoint: '/api/holiday', errorRate: 1, serverErrors: 2, faultRate: 0.4 });
  });

  it('charts server faults apart from caller errors', () => {
    expect(seriesOf(rows, days, 'serverErrors', 2)).toEqual([
      { name: '/api/almanac', values: [0, 0, 0] },
      { name: '/api/holiday', values: [0, 2, 0] },
      { name: 'other', values: [0, 0, 0] },
    ]);
    expect(seriesOf(rows, days, 'callerErrors', 2)[0]).toEqual({ name: '/api/almanac', values: [1, 0, 0] });
  });

  it('requests per endpoint per day: zero on quiet days, the tail summed as other', () => {
    expect(seriesOf(rows, days, 'requests', 2, '其他')).toEqual([
      { name: '/api/almanac', values: [10, 0, 30] },
      { name: '/api/holiday', values: [0, 5, 0] },
      { name: '其他', values: [0, 1, 0] },
    ]);
  });

  it('p99 is missing, not zero, on days without calls', () => {
    expect(seriesOf(rows, days, 'p99', 1)).toEqual([{ name: '/api/almanac', values: [12, null, 20] }]);
  });

  it('picks round axis ticks', () => {
    expect(niceTicks(37)).toEqual([0, 10, 20, 30, 40]);
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(1, 4, true)).toEqual([0, 1]); // counts: no 0.25 requests
    expect(niceTicks(1)).toEqual([0, 0.25, 0.5, 0.75, 1]);
  });
});
