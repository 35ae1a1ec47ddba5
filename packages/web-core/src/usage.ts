/** Shapes /api/admin/usage rows (one per endpoint and day) into chart series and per-endpoint totals. */
export interface UsageRowLike {
  endpoint: string;
  day: string;
  requests: number;
  errors: number;
  /** Failures that are the caller's (a bad or unknown parameter, an unknown path, 429), even when answered 500. */
  callerErrors: number;
  /** Failures that are the server's: what an operator should look into. */
  serverErrors: number;
  p99: number;
}

export interface Series {
  name: string;
  values: Array<number | null>;
}

/** Every day from `from` to `to` inclusive (YYYY-MM-DD), so quiet days show as zero instead of vanishing. */
export function dayRange(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = new Date(`${from}T00:00:00Z`); d <= new Date(`${to}T00:00:00Z`); d.setUTCDate(d.getUTCDate() + 1))
    out.push(d.toISOString().slice(0, 10));
  return out;
}

export interface Total {
  endpoint: string;
  requests: number;
  errors: number;
  errorRate: number;
  callerErrors: number;
  serverErrors: number;
  /** Server faults per request: the rate that says something is wrong here. */
  faultRate: number;
  /** The worst daily p99 in the period. */
  p99: number;
}

export function totals(rows: UsageRowLike[]): Total[] {
  const by = new Map<string, Total>();
  for (const r of rows) {
    const t = by.get(r.endpoint) ?? {
      endpoint: r.endpoint,
      requests: 0,
      errors: 0,
      errorRate: 0,
      callerErrors: 0,
      serverErrors: 0,
      faultRate: 0,
      p99: 0,
    };
    t.requests += r.requests;
    t.errors += r.errors;
    t.callerErrors += r.callerErrors;
    t.serverErrors += r.serverErrors;
    t.p99 = Math.max(t.p99, r.p99);
    by.set(r.endpoint, t);
  }
  return [...by.values()]
    .map((t) => ({
      ...t,
      errorRate: t.requests ? t.errors / t.requests : 0,
      faultRate: t.requests ? t.serverErrors / t.requests : 0,
    }))
    .sort((a, b) => b.requests - a.requests || a.endpoint.localeCompare(b.endpoint));
}

/**
 * One series per endpoint (the busiest `top`, the rest summed as "other" for counts) over `days`.
 * Counts are zero on days without calls; p99 is missing (null) there, since no latency was measured.
 */
export function seriesOf(
  rows: UsageRowLike[],
  days: string[],
  metric: 'requests' | 'errors' | 'callerErrors' | 'serverErrors' | 'p99',
  top = 6,
  otherLabel = 'other',
): Series[] {
  const ranked = totals(rows).map((t) => t.endpoint);
  const shown = ranked.slice(0, top);
  const index = new Map(days.map((d, i) => [d, i]));
  const empty = () => days.map(() => (metric === 'p99' ? null : 0)) as Array<number | null>;
  const series = new Map(shown.map((e) => [e, empty()]));
  const other = empty();
  let hasOther = false;
  for (const r of rows) {
    const i = index.get(r.day);
    if (i === undefined) continue;
    const s = series.get(r.endpoint);
    if (s) s[i] = metric === 'p99' ? r.p99 : (s[i] ?? 0) + r[metric];
    else if (metric !== 'p99') {
      other[i] = (other[i] ?? 0) + r[metric];
      hasOther = true;
    }
  }
  const out = shown.map((name) => ({ name, values: series.get(name)! }));
  if (hasOther) out.push({ name: otherLabel, values: other });
  return out;
}

/** Round numbers for a y axis from 0 to at least `max`: [0, step, 2·step, …]; whole steps for counts. */
export function niceTicks(max: number, count = 4, integer = false): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = Math.max(max / count, integer ? 1 : 0);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw)!;
  const ticks: number[] = [];
  for (let v = 0; v < max + step; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}
