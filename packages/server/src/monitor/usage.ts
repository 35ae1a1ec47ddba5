import { transact } from '../db/transaction.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Dialect } from '../db/index.js';
import { todayInShanghai } from '../shared/shanghai-day.js';
import { bucketOf, emptyBuckets, mergeBuckets, quantile } from './histogram.js';

interface Tally {
  requests: number;
  errors: number;
  callerErrors: number;
  buckets: number[];
}

interface Slot {
  day: string;
  batch: Map<string, Tally>;
  tally: Tally;
}

export interface UsageRow {
  endpoint: string;
  day: string;
  requests: number;
  /** Failed answers: callerErrors + serverErrors. */
  errors: number;
  /** The caller's doing: a bad or unknown parameter (the public API's 500 with `参数 … 无效`), an unknown path, 429. */
  callerErrors: number;
  /** Everything else that failed: the server's fault. */
  serverErrors: number;
  p50: number;
  p90: number;
  p99: number;
}

/**
 * Counts public API calls per endpoint and day in memory (one map update per request) and flushes the tallies
 * to the database periodically and at shutdown — never a write per request. Several instances add into the same rows.
 */
export class UsageRecorder {
  private pending = new Map<string, Tally>();
  /** Per endpoint, the tally record() last counted an anonymous call into, with the day and batch it belongs to. */
  private readonly current = new Map<string, Slot>();
  /** The same per API key id (bounded by the stored keys). */
  private readonly currentByKey = new Map<string, Map<string, Slot>>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** When each API key was last used, since the last flush (written with the tallies: no write per request). */
  private lastUsed = new Map<string, number>();

  /**
   * One answer: `failure` is undefined on success, else whose fault it was; `apiKeyId` the caller's key ('' for an
   * anonymous caller).
   */
  record(endpoint: string, ms: number, failure?: 'caller' | 'server', apiKeyId = '', day = todayInShanghai()): void {
    // The caller's tally of the day in this batch, found without building the `day|endpoint|key` key of each request:
    // an anonymous caller's slot is the endpoint, a key's the endpoint in the key's own map (no string built for either).
    let slots = this.current;
    if (apiKeyId) {
      this.lastUsed.set(apiKeyId, Date.now());
      let ofKey = this.currentByKey.get(apiKeyId);
      if (!ofKey) this.currentByKey.set(apiKeyId, (ofKey = new Map()));
      slots = ofKey;
    }
    let current = slots.get(endpoint);
    if (!current || current.day !== day || current.batch !== this.pending) {
      const key = `${day}|${endpoint}|${apiKeyId}`;
      let tally = this.pending.get(key);
      if (!tally) this.pending.set(key, (tally = { requests: 0, errors: 0, callerErrors: 0, buckets: emptyBuckets() }));
      current = { day, batch: this.pending, tally };
      slots.set(endpoint, current);
    }
    const t = current.tally;
    t.requests++;
    if (failure) t.errors++;
    if (failure === 'caller') t.callerErrors++;
    t.buckets[bucketOf(ms)]++;
  }

  start(intervalMs: number): void {
    this.timer = setInterval(
      () => void this.flush().catch((err) => this.log.error({ err }, 'usage flush failed')),
      intervalMs,
    );
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  /** Adds the pending tallies into the stored rows, one transaction per row (row-locked on PostgreSQL). */
  async flush(): Promise<void> {
    const batch = this.pending;
    const used = this.lastUsed;
    this.pending = new Map();
    this.lastUsed = new Map();
    for (const [id, ms] of used) {
      const at = new Date(ms).toISOString();
      await this.db
        .updateTable('api_keys')
        .set({ last_used_at: at })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
        .execute();
    }
    for (const [key, t] of batch) {
      const [day, endpoint, apiKeyId] = key.split('|');
      await transact(this.db, async (trx) => {
        let q = trx
          .selectFrom('api_usage')
          .selectAll()
          .where('endpoint', '=', endpoint)
          .where('day', '=', day)
          .where('api_key_id', '=', apiKeyId);
        if (this.dialect === 'postgres') q = q.forUpdate();
        const row = await q.executeTakeFirst();
        if (!row) {
          await trx
            .insertInto('api_usage')
            .values({
              api_key_id: apiKeyId,
              endpoint,
              day,
              requests: t.requests,
              errors: t.errors,
              caller_errors: t.callerErrors,
              buckets: JSON.stringify(t.buckets),
            })
            .onConflict((oc) =>
              oc.columns(['endpoint', 'day', 'api_key_id']).doUpdateSet((eb) => ({
                requests: eb('api_usage.requests', '+', t.requests),
                errors: eb('api_usage.errors', '+', t.errors),
                caller_errors: eb('api_usage.caller_errors', '+', t.callerErrors),
              })),
            )
            .execute();
          return;
        }
        await trx
          .updateTable('api_usage')
          .set({
            requests: Number(row.requests) + t.requests,
            errors: Number(row.errors) + t.errors,
            caller_errors: Number(row.caller_errors) + t.callerErrors,
            buckets: JSON.stringify(mergeBuckets(JSON.parse(row.buckets) as number[], t.buckets)),
          })
          .where('endpoint', '=', endpoint)
          .where('day', '=', day)
          .where('api_key_id', '=', apiKeyId)
          .execute();
      });
    }
  }

  /** Stored rows plus what is still pending in this instance, one per (key, day, endpoint). */
  private async tallies(
    opts: UsageFilter,
  ): Promise<Array<Tally & { apiKeyId: string; endpoint: string; day: string }>> {
    let q = this.db.selectFrom('api_usage').selectAll();
    if (opts.from) q = q.where('day', '>=', opts.from);
    if (opts.to) q = q.where('day', '<=', opts.to);
    if (opts.endpoint) q = q.where('endpoint', '=', opts.endpoint);
    if (opts.apiKey !== undefined) q = q.where('api_key_id', '=', opts.apiKey);
    const out = (await q.execute()).map((r) => ({
      apiKeyId: r.api_key_id,
      endpoint: r.endpoint,
      day: r.day,
      requests: Number(r.requests),
      errors: Number(r.errors),
      callerErrors: Number(r.caller_errors),
      buckets: JSON.parse(r.buckets) as number[],
    }));
    for (const [key, t] of this.pending) {
      const [day, endpoint, apiKeyId] = key.split('|');
      if (
        (opts.from && day < opts.from) ||
        (opts.to && day > opts.to) ||
        (opts.endpoint && endpoint !== opts.endpoint) ||
        (opts.apiKey !== undefined && apiKeyId !== opts.apiKey)
      )
        continue;
      out.push({ apiKeyId, endpoint, day, ...t });
    }
    return out;
  }

  /**
   * Per endpoint and day, with percentiles, newest day first: every caller together, or one API key's calls
   * (`apiKey`: its id; '' for the anonymous callers).
   */
  async report(opts: UsageFilter): Promise<UsageRow[]> {
    const merged = new Map<string, Tally & { endpoint: string; day: string }>();
    for (const t of await this.tallies(opts)) {
      const key = `${t.day}|${t.endpoint}`;
      const cur = merged.get(key);
      merged.set(key, cur ? { ...cur, ...addTallies(cur, t) } : { ...t });
    }
    return [...merged.values()]
      .map((m) => ({
        endpoint: m.endpoint,
        day: m.day,
        requests: m.requests,
        errors: m.errors,
        callerErrors: m.callerErrors,
        serverErrors: m.errors - m.callerErrors,
        p50: quantile(m.buckets, 0.5),
        p90: quantile(m.buckets, 0.9),
        p99: quantile(m.buckets, 0.99),
      }))
      .sort((a, b) => b.day.localeCompare(a.day) || b.requests - a.requests);
  }

  /** Totals per caller (API key id, '' for the anonymous callers), most requests first. */
  async callers(opts: UsageFilter): Promise<Array<{ apiKeyId: string } & Omit<Tally, 'buckets'>>> {
    const merged = new Map<string, Tally>();
    for (const t of await this.tallies(opts)) {
      const cur = merged.get(t.apiKeyId);
      merged.set(t.apiKeyId, cur ? addTallies(cur, t) : t);
    }
    return [...merged]
      .map(([apiKeyId, t]) => ({ apiKeyId, requests: t.requests, errors: t.errors, callerErrors: t.callerErrors }))
      .sort((a, b) => b.requests - a.requests || a.apiKeyId.localeCompare(b.apiKeyId));
  }
}

export interface UsageFilter {
  from?: string;
  to?: string;
  endpoint?: string;
  apiKey?: string;
}

const addTallies = (a: Tally, b: Tally): Tally => ({
  requests: a.requests + b.requests,
  errors: a.errors + b.errors,
  callerErrors: a.callerErrors + b.callerErrors,
  buckets: mergeBuckets(a.buckets, b.buckets),
});
