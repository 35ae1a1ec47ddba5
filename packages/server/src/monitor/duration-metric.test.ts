import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { DurationHistogram } from './duration-metric.js';

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

describe('request duration histogram', () => {
  it("exposes the same text as prom-client's Histogram for the same observations", async () => {
    const theirs = new Registry();
    const reference = new Histogram({
      name: 'tianji_http_request_duration_seconds',
      help: 'HTTP request duration by route and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: BUCKETS,
      registers: [theirs],
    });
    const ours = new Registry();
    const h = new DurationHistogram({
      name: 'tianji_http_request_duration_seconds',
      help: 'HTTP request duration by route and status',
      buckets: BUCKETS,
    });
    ours.registerMetric(h.metric());

    const sets = [
      ['GET', '/api/almanac', '200'],
      ['GET', '/api/almanac', '304'],
      ['POST', '/api/auth/login', '401'],
    ] as const;
    const series = sets.map(([method, route, status]) => h.series({ method, route, status }));
    const children = sets.map((labels) => reference.labels(...labels));
    // Values on, between, below and above the bounds, a zero, and many of them (the sum's decimals).
    const values = [0, 0.0004, 0.001, 0.0011, 0.0025, 0.004, 0.05, 0.3, 1, 2.5, 2.6, 40];
    for (let i = 0; i < 500; i++) {
      const k = (i * 7) % sets.length;
      const v = values[i % values.length] * (1 + (i % 5) / 1000);
      series[k].observe(v);
      children[k].observe(v);
    }

    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain(
      'tianji_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/almanac",status="200"}',
    );
    expect(text).toMatch(
      /tianji_http_request_duration_seconds_count\{method="POST",route="\/api\/auth\/login",status="401"\} \d+/,
    );
  });

  it('counts a value equal to a bound in that bucket, and one above every bound only in +Inf', async () => {
    const h = new DurationHistogram({ name: 'd', help: 'd', buckets: [0.1, 1] });
    const s = h.series({ route: '/x' });
    s.observe(0.1);
    s.observe(5);
    expect(s.cumulative()).toEqual([1, 1]);
    expect(s.count).toBe(2);
    expect(s.sum).toBeCloseTo(5.1);
  });
});
