import { randomInt } from 'node:crypto';
import type { Instance } from './instance.js';
import type { ThrowawayPostgres, ThrowawayRedis } from './services.js';

export const ADMIN = { username: 'admin', password: 'cluster-admin-password' };
/** RATE_LIMIT_MAX of the cluster: the shared-limit scenario expects exactly this many answers per client. */
export const RATE_LIMIT_MAX = 40;

export interface Reply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: JSON of many routes, read by the checks
  body: any;
  upstream?: string;
  ms: number;
}

/** What a scenario reports: a row of the summary table. */
export interface Outcome {
  name: string;
  requests: number;
  failures: number;
  lostWrites: number;
  problems: string[];
  notes: string[];
}

export interface Cluster {
  proxy: string;
  instances: Instance[];
  pg: ThrowawayPostgres;
  redis: ThrowawayRedis;
  /** Environment every cluster instance runs with. */
  env: Record<string, string>;
  /** Folder for every instance's data and log. */
  dir: string;
  /** Instances started besides A, B and C (stopped with the cluster). */
  extra: Instance[];
}

/** A client IP for a request: each one gets its own public rate-limit count. */
export const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

/**
 * One scenario's counters and checks. `call` counts requests; `expect` records a broken promise without stopping
 * the scenario, so a run reports everything it saw.
 */
export class Tally {
  requests = 0;
  failures = 0;
  lostWrites = 0;
  readonly problems: string[] = [];
  readonly notes: string[] = [];
  constructor(readonly name: string) {}

  expect(ok: boolean, problem: string): boolean {
    if (!ok) this.problems.push(problem);
    return ok;
  }
  note(text: string) {
    this.notes.push(text);
  }

  async call(
    base: string,
    method: string,
    path: string,
    opts: { token?: string; body?: unknown; ip?: string; timeoutMs?: number } = {},
  ): Promise<Reply> {
    this.requests++;
    const t0 = Date.now();
    const headers: Record<string, string> = { 'x-forwarded-for': opts.ip ?? randomIp() };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    try {
      const res = await fetch(base + path, {
        method,
        headers,
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
      });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON
      }
      return { status: res.status, body, upstream: res.headers.get('x-upstream') ?? undefined, ms: Date.now() - t0 };
    } catch (err) {
      return { status: 0, body: (err as Error).message, ms: Date.now() - t0 };
    }
  }

  outcome(): Outcome {
    return {
      name: this.name,
      requests: this.requests,
      failures: this.failures,
      lostWrites: this.lostWrites,
      problems: this.problems,
      notes: this.notes,
    };
  }
}

export async function signIn(t: Tally, base: string, username = ADMIN.username, password = ADMIN.password) {
  const res = await t.call(base, 'POST', '/api/auth/login', { body: { username, password } });
  if (res.status !== 200)
    throw new Error(`sign-in as ${username} failed: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
  return res.body.data as { accessToken: string; refreshToken: string; user: { id: string } };
}

export interface LoadRecord {
  /** When the request was sent and when it was answered. */
  sent: number;
  at: number;
  kind: 'write' | 'read';
  status: number;
  content?: string;
  upstream?: string;
  /** The start of a failed answer's body. */
  detail?: string;
}

const detail = (r: Reply) => (r.status >= 200 && r.status < 300 ? undefined : JSON.stringify(r.body).slice(0, 80));

/**
 * Admin writes (a new joke each, unique text) and public reads through the proxy from `workers` loops until
 * `stop()` is called. Returns the records; `lostWrites` compares the 2xx-answered writes with the database.
 */
export function startLoad(t: Tally, base: string, token: string, tag: string, workers = 6) {
  const records: LoadRecord[] = [];
  let running = true;
  let seq = 0;
  const loop = async () => {
    while (running) {
      const content = `cluster-${tag}-${seq++}`;
      let sent = Date.now();
      const w = await t.call(base, 'POST', '/api/admin/content/jokes', { token, body: { content }, timeoutMs: 15_000 });
      records.push({
        sent,
        at: Date.now(),
        kind: 'write',
        status: w.status,
        content,
        upstream: w.upstream,
        detail: detail(w),
      });
      sent = Date.now();
      const r = await t.call(base, 'GET', '/api/random-color', { timeoutMs: 15_000 });
      records.push({ sent, at: Date.now(), kind: 'read', status: r.status, upstream: r.upstream, detail: detail(r) });
    }
  };
  const loops = Array.from({ length: workers }, loop);
  return {
    records,
    async stop() {
      running = false;
      await Promise.all(loops);
      return records;
    },
  };
}

/** Counts writes answered 2xx whose joke is not in the database. */
export async function countLostWrites(pg: ThrowawayPostgres, records: LoadRecord[]): Promise<number> {
  const rows = await pg.query<{ data: string }>(`select data from content_items where library = 'jokes'`);
  const stored = new Set(rows.map((r) => (JSON.parse(r.data) as { content: string }).content));
  return records.filter((r) => r.kind === 'write' && r.status >= 200 && r.status < 300 && !stored.has(r.content!))
    .length;
}
