/**
 * What `npm run bench` (run.ts), `npm run bench:ab` (ab.ts), `npm run bench:floors` (floors.ts) and
 * `npm run bench:memory` (memory.ts) share: the build of the server they measure, the server children (bench/server.ts
 * under tsx: start one and wait for its port, ask it for its CPU time, stop it), the app's seeded administrator and
 * sign-in, a target's request after its setup, the load itself, and what the features floor is given to send.
 */
import { fork, spawnSync, type ChildProcess, type Serializable } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { BenchContext, BenchTarget } from './bench-target.js';
import type { AnswerMessage, CpuMessage, ReadyMessage, ServerKind } from './server.js';
import { BUDGETED } from './targets.js';

/** The super administrator every bench app is seeded with (server.ts app <dir> <username> <password>). */
export const ADMIN = { username: 'admin', password: 'bench-password-123' };

export interface Server {
  child: ChildProcess;
  port: number;
}

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * Builds the server the bench measures: the compiled one (packages/server/dist), which is what `npm start` runs. The
 * sources run through tsx cost 5–15 % more CPU a request (its esbuild transform keeps function names by wrapping
 * every named closure in an Object.defineProperty call, made each time the closure is created). This checkout is built
 * when a build input changed (scripts/build-if-changed.mjs, as `npm start` does); another checkout (bench:ab's base)
 * gets its server built afresh. The build's output goes to stderr, so that stdout stays the results table.
 */
export function buildServer(checkout?: string): void {
  const result = checkout
    ? spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], {
        cwd: path.join(checkout, 'packages/server'),
        stdio: ['ignore', 2, 2],
      })
    : spawnSync(process.execPath, [path.join(here, '../scripts/build-if-changed.mjs')], { stdio: ['ignore', 2, 2] });
  if (result.status !== 0) throw new Error(`the server build failed${checkout ? ` in ${checkout}` : ''}`);
}

/**
 * `BENCH_NODE_FLAGS="--single-threaded-gc"`: node flags given to **every** server of a run (the app and each baseline
 * alike), for experiments with V8's settings; NODE_OPTIONS refuses many of them (the garbage collector's among them).
 */
const NODE_FLAGS = process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];

/** Forks bench/server.ts under tsx (with NODE_FLAGS) and resolves with the port it listens on. */
export function startServer(
  kind: ServerKind,
  args: string[] = [],
  cpuProf?: string,
  /** Another checkout's copy of server.ts (bench:ab); default: this one. */
  entry = path.join(here, 'server.ts'),
): Promise<Server> {
  const child = fork(entry, [kind, ...args], {
    execArgv: [
      ...NODE_FLAGS,
      '--import',
      import.meta.resolve('tsx'),
      ...(cpuProf ? ['--cpu-prof', '--cpu-prof-dir', cpuProf] : []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m: ReadyMessage) => resolve({ child, port: m.port }));
    child.once('exit', (code) => reject(new Error(`${kind} server exited early (code ${code})`)));
    child.once('error', reject);
  });
}

/** Sends a server child `message` and resolves with its first reply that `isReply` accepts. */
function ask<T>(server: Server, message: Serializable, isReply: (m: T) => boolean): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (m: T) => {
      if (!isReply(m)) return;
      server.child.off('message', onMessage);
      resolve(m);
    };
    server.child.on('message', onMessage);
    server.child.send(message);
  });
}

export function cpuOf(server: Server): Promise<CpuMessage> {
  return ask<CpuMessage>(server, 'cpu', (m) => typeof m?.cpu === 'number');
}

/** Has the app stop the threads its idle timers would stop (BenchTarget.afterIdle); resolves once they have. */
export async function stopIdleThreads(app: Server): Promise<void> {
  await ask<{ idleThreadsStopped?: boolean }>(app, 'stop-idle-threads', (m) => m?.idleThreadsStopped === true);
}

export function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** What a target's setup may use against the app at `baseUrl`: signing in as ADMIN. */
export function appContext(baseUrl: string): BenchContext {
  return {
    baseUrl,
    async login() {
      const res = await fetch(`${baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ADMIN),
      });
      if (res.status !== 200) throw new Error(`bench login failed: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { data: { accessToken: string; refreshToken: string } }).data;
    },
  };
}

/** A target's request path and headers once its setup has added what it returns (prepare). */
export type Prepared = { path: string; headers: Record<string, string> };

/** Runs a target's setup (once) and gives its request. */
export async function prepare(t: BenchTarget, ctx: BenchContext): Promise<Prepared> {
  const extra = (await t.setup?.(ctx)) ?? {};
  return {
    path: extra.path ?? t.path,
    headers: { ...t.headers, ...extra.headers, ...(t.body ? { 'content-type': 'application/json' } : {}) },
  };
}

/** Requests of each target in a warm pass (prepareAndWarm): enough for every shared code path to have seen them all. */
const WARM_REQUESTS = 2000;

/**
 * The warm pass of bench:floors and bench:ab: each of `measured` and every budgeted target prepared once for this start
 * (its setup: a sign-in, an API key), then the app at `ctx` serves every budgeted target's request WARM_REQUESTS times
 * at 10 connections, before any target is measured. A running service serves all its routes, and what Fastify, Node
 * and the app's shared code cost a request grows with the routes it has served (the shapes their property loads and
 * calls have seen): almanac against its answer floor read 1.18× on a fresh app and 1.33× once the app had served the
 * other targets, while as many more almanac requests changed nothing (2026-11-28). Without the pass, a target's figure
 * depended on its place in the list. Returns each target's prepared request; says on stderr (as `bench`) which
 * budgeted targets answered other than 2xx.
 */
export async function prepareAndWarm(
  ctx: BenchContext,
  measured: readonly BenchTarget[],
  bench: string,
): Promise<Map<BenchTarget, Prepared>> {
  const requests = new Map<BenchTarget, Prepared>();
  for (const t of new Set([...BUDGETED, ...measured])) requests.set(t, await prepare(t, ctx));
  const failed: string[] = [];
  for (const t of BUDGETED) {
    const r = requests.get(t)!;
    const result = await load(ctx.baseUrl + r.path, { ...t, headers: r.headers }, { amount: WARM_REQUESTS }, 10);
    if (result.non2xx || result.errors) failed.push(t.name);
  }
  if (failed.length) console.error(`${bench}: the warm pass had answers that were not 2xx from ${failed.join(', ')}`);
  return requests;
}

/**
 * One autocannon run against `url` with a target's method, headers, body and paths: for `duration` seconds, or until
 * `amount` requests have been answered.
 */
export async function load(
  url: string,
  target: Pick<BenchTarget, 'method' | 'headers' | 'body' | 'paths'>,
  span: { duration: number } | { amount: number },
  connections: number,
) {
  const requests = target.paths?.map((p) => ({ path: p }));
  return autocannon({
    url,
    method: target.method ?? 'GET',
    headers: target.headers,
    body: target.body,
    ...span,
    connections,
    pipelining: 1,
    ...(requests ? { requests } : {}),
  });
}

/** Starts a target's unmeasured background load (a fresh path per request); returns the function that stops it. */
export function startBackground(url: string, bg: NonNullable<BenchTarget['background']>): () => void {
  const instance = autocannon(
    {
      url: new URL(url).origin,
      connections: bg.connections,
      duration: 24 * 3600,
      pipelining: 1,
      requests: [{ setupRequest: (req) => ({ ...req, path: bg.path() }) }],
    },
    () => undefined,
  );
  return () => instance.stop();
}

/** Headers that describe the connection or the body, not the service: the floor sets its own. */
const PER_ANSWER = new Set(['date', 'connection', 'keep-alive', 'content-length', 'content-type', 'transfer-encoding']);

/**
 * The fixed headers the app sends on every API answer (the lean security set of issue 31 — pages alone keep helmet's
 * — and CORS), as it sent them on /healthz, a plain-HTTP request like the bench's.
 */
export async function fixedHeadersOf(baseUrl: string): Promise<Record<string, string>> {
  const res = await fetch(`${baseUrl}/healthz`);
  if (res.status !== 200) throw new Error(`bench: /healthz answered ${res.status}`);
  return Object.fromEntries([...res.headers].filter(([name]) => !PER_ANSWER.has(name)));
}

/**
 * What the app answered to one request of the target (its first path), for the answer floor to send: the bytes, their
 * type, and the caching headers the app's features add (ETag, Cache-Control). Undefined for a target that is not a
 * GET or whose answer is not 2xx (the floor would measure something else).
 */
export async function answerOf(
  baseUrl: string,
  t: BenchTarget,
  request: { path: string; headers: Record<string, string> },
): Promise<AnswerMessage['answer'] | undefined> {
  if ((t.method ?? 'GET') !== 'GET') return undefined;
  const res = await fetch(baseUrl + (t.paths?.[0] ?? request.path), { headers: request.headers });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status < 200 || res.status > 299) return undefined;
  const headers: Record<string, string> = {};
  for (const name of ['etag', 'cache-control']) {
    const value = res.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return {
    type: res.headers.get('content-type') ?? 'application/octet-stream',
    body: body.toString('base64'),
    headers,
  };
}

/** Makes the floor server send `answer` at /answer from now on. */
export async function postAnswer(floor: Server, answer: AnswerMessage['answer']): Promise<void> {
  await ask<{ answerSet?: boolean }>(floor, { answer } satisfies AnswerMessage, (m) => m?.answerSet === true);
}

/** The options of the side-by-side benches (bench:keyed as they are; bench:ab and bench:floors with STARTS_OPTIONS). */
export const SIDE_BY_SIDE_OPTIONS = {
  duration: { type: 'string', default: '5' },
  rounds: { type: 'string', default: '3' },
  connections: { type: 'string', default: '50' },
} as const;

/**
 * What bench:floors and bench:ab add to SIDE_BY_SIDE_OPTIONS: fresh servers for each of `starts` (what one start's
 * compiled code happens to be moves all its rounds together, by up to ±20 %; an even number, so that each server is
 * started first as often as last, see startInOrder), one round per pair and start.
 */
export const STARTS_OPTIONS = {
  ...SIDE_BY_SIDE_OPTIONS,
  starts: { type: 'string', default: '4' },
  rounds: { type: 'string', default: '1' },
} as const;

/**
 * Starts a start's servers one after another, `starters` in the order listed on even starts (0, 2, …) and in reverse on
 * odd ones; the servers come back in the listed positions. Of two processes of one build, the one started first
 * measured 2–6 % more CPU a request (bench:ab, odd against even starts): with one order, the same server would always
 * be the older process, and its ratios would lean one way. An even number of starts (the default, 4) gives each order
 * as many starts.
 */
export async function startInOrder<T>(start: number, starters: readonly (() => Promise<T>)[]): Promise<T[]> {
  const order = starters.map((_, i) => i);
  if (start % 2 === 1) order.reverse();
  const started: T[] = [];
  for (const i of order) started[i] = await starters[i]();
  return started;
}

/** The number of starts; throws `usage` unless it is a whole number from 1. */
export function startsOf(values: { starts: string }, usage: string): number {
  const starts = Number(values.starts);
  if (!(Number.isInteger(starts) && starts >= 1)) throw new Error(usage);
  return starts;
}

export interface SideBySide {
  /** Seconds of each measured round. */
  duration: number;
  rounds: number;
  /** Split between the two servers of a pair. */
  connections: number;
}

/** The shared options as numbers; throws `usage` when one is out of range. */
export function sideBySideOf(values: { duration: string; rounds: string; connections: string }, usage: string) {
  const opts: SideBySide = {
    duration: Number(values.duration),
    rounds: Number(values.rounds),
    connections: Number(values.connections),
  };
  if (!(opts.duration >= 1) || !(opts.rounds >= 1) || !(opts.connections >= 2)) throw new Error(usage);
  return opts;
}

/** One server under a target's requests: the server, the full URL, and the request's shape. */
export interface Load {
  server: Server;
  url: string;
  target: Pick<BenchTarget, 'method' | 'headers' | 'body' | 'paths'>;
}

/** CPU µs per request of a server under half the connections for `seconds`; NaN when an answer was not 2xx. */
async function cpuPerRequest({ server, url, target }: Load, seconds: number, connections: number): Promise<number> {
  const before = (await cpuOf(server)).cpu;
  const r = await load(url, target, { duration: seconds }, Math.floor(connections / 2));
  const after = (await cpuOf(server)).cpu;
  return r.non2xx || r.errors || !r.requests.total ? Number.NaN : (after - before) / r.requests.total;
}

/**
 * A ratio as the tables print it: two decimals, or three where two would read as the budget itself (1.2549 is not
 * met against 1.25, and `1.25×: not met` would say otherwise).
 */
export function ratioText(ratio: number, budget?: number): string {
  const two = ratio.toFixed(2);
  return budget !== undefined && ratio !== budget && two === budget.toFixed(2) ? ratio.toFixed(3) : two;
}

/** A budget and whether `ratio` (CPU ÷ the answer floor's) meets it: `≤ 1.25×: met` / `≤ 1.25×: **not met**`. */
export function verdict(ratio: number, budget: number | undefined): string {
  if (budget === undefined) return '';
  if (!Number.isFinite(ratio)) return `≤ ${budget}×: not measured`;
  return meetsBudget(ratio, budget) ? `≤ ${budget}×: met` : `≤ ${budget}×: **not met**`;
}

const meetsBudget = (ratio: number, budget: number) => ratio <= budget;

/**
 * A latency aim and whether a run meets it: p99 under `budget` ms with no error answer (`invalid`).
 * `p99 < 150 ms: met` / `p99 < 150 ms: **not met**`.
 */
export function latencyVerdict(p99: number, budget: number | undefined, invalid?: string): string {
  if (budget === undefined) return '';
  return meetsLatency(p99, budget, invalid) ? `p99 < ${budget} ms: met` : `p99 < ${budget} ms: **not met**`;
}

const meetsLatency = (p99: number, budget: number, invalid?: string) => p99 < budget && !invalid;

/** The latency aims of a run, as budgetSummary gives the CPU budgets; '' when no target has one. */
export function latencySummary(rows: { name: string; p99: number; p99Budget?: number; invalid?: string }[]): string {
  const judged = rows.filter((r) => r.p99Budget !== undefined);
  if (!judged.length) return '';
  const list = (xs: typeof judged) =>
    xs.map((r) => `${r.name} ${r.p99} ms${r.invalid ? ` (${r.invalid})` : ''} (< ${r.p99Budget} ms)`).join(', ');
  const met = judged.filter((r) => meetsLatency(r.p99, r.p99Budget!, r.invalid));
  const missed = judged.filter((r) => !met.includes(r));
  return [
    `Latency aims (p99 at the run's connections, no error answer): ${met.length} of ${judged.length} met.`,
    `- met: ${list(met) || 'none'}`,
    `- not met: ${list(missed) || 'none'}`,
  ].join('\n');
}

/** One line per outcome: which budgets were met, which were not (the ratio after each name); '' when none has one. */
export function budgetSummary(rows: { name: string; ratio: number; budget?: number }[]): string {
  if (!rows.some((r) => r.budget !== undefined)) return '';
  const judged = rows.filter((r) => r.budget !== undefined && Number.isFinite(r.ratio));
  const list = (xs: typeof judged) =>
    xs.map((r) => `${r.name} ${ratioText(r.ratio, r.budget)}× (≤ ${r.budget}×)`).join(', ');
  const met = judged.filter((r) => meetsBudget(r.ratio, r.budget!));
  const missed = judged.filter((r) => !met.includes(r));
  return [
    `Budgets (CPU per request ÷ the answer floor's): ${met.length} of ${judged.length} met.`,
    `- met: ${list(met) || 'none'}`,
    `- not met: ${list(missed) || 'none'}`,
  ].join('\n');
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Side-by-side rounds from several starts of fresh servers (bench:floors, bench:ab), as a table prints them: each
 * start's rounds, starts separated by ` · ` (`1.24 1.20 · 1.18`), and the median of every round. One start's compiled
 * code can move all of its rounds together, so the median is taken over rounds of several starts, not one.
 */
export function roundsOf(byStart: number[][], digits = 2): { text: string; median: number } {
  return {
    text: byStart.map((rounds) => rounds.map((r) => r.toFixed(digits)).join(' ')).join(' · '),
    median: median(byStart.flat()),
  };
}

/**
 * Loads `a` and `b` at the same time, half the connections each, for a 2 s warm-up and then `rounds` rounds, so that
 * whatever else the machine does in those seconds falls on both: each round's CPU µs per request of both, and `b ÷ a`.
 */
export async function sideBySide(a: Load, b: Load, opts: SideBySide) {
  const both = (seconds: number) =>
    Promise.all([cpuPerRequest(a, seconds, opts.connections), cpuPerRequest(b, seconds, opts.connections)]);
  await both(2);
  const pairs: [number, number][] = [];
  for (let i = 0; i < opts.rounds; i++) pairs.push(await both(opts.duration));
  const ratios = pairs.map(([x, y]) => y / x);
  return { pairs, ratios, median: median(ratios) };
}
