import { describe, expect, it } from 'vitest';
import { RecentRequests } from './recent-requests.js';

describe('requests of the last minute', () => {
  it('counts answers and keeps caller errors apart from server faults', () => {
    const r = new RecentRequests();
    const t = 1_800_000_000_000;
    r.record(undefined, t);
    r.record('caller', t + 10);
    r.record('server', t + 2_000);
    expect(r.lastMinute(t + 2_000)).toEqual({ requests: 3, callerErrors: 1, serverFaults: 1 });
  });

  it('forgets what is older than a minute, also when its slot is reused', () => {
    const r = new RecentRequests();
    const t = 1_800_000_000_000;
    r.record('server', t);
    r.record(undefined, t + 30_000);
    expect(r.lastMinute(t + 59_999)).toEqual({ requests: 2, callerErrors: 0, serverFaults: 1 });
    expect(r.lastMinute(t + 60_000)).toEqual({ requests: 1, callerErrors: 0, serverFaults: 0 });
    r.record(undefined, t + 120_000);
    expect(r.lastMinute(t + 120_000)).toEqual({ requests: 1, callerErrors: 0, serverFaults: 0 });
  });
});
