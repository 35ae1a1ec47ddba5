/**
 * `npm run bench [-- --only auth --duration 5 --connections 50]`
 *
 * Measures the app against a bare node:http hello-world and a bare Fastify hello-world on the same machine and
 * prints a Markdown table.
 * Each server runs in its own child process (bench/server.ts) and autocannon runs here, so the load generator
 * never shares an event loop with the server it measures. Both baselines are measured again right before every
 * target and each ratio uses those paired runs, so a machine whose load drifts during the run still gives fair
 * ratios. See bench/README.md for how to read the numbers.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { BenchTarget } from './bench-target.js';
import {
  ADMIN,
  answerOf,
  appContext,
  fixedHeadersOf,
  buildServer,
  cpuOf,
  load,
  postAnswer,
  prepare,
  type Server,
  startServer,
  startBackground,
  stopIdleThreads,
  stopServer,
  budgetSummary,
  latencySummary,
  latencyVerdict,
  ratioText,
  verdict,
} from './harness.js';
import { runPlain } from './plain.js';
import { TARGETS } from './targets.js';

interface Options {
  only: string[];
  duration: number;
  connections: number;
  warmup: number;
  /** Folder for a V8 CPU profile of the app process (node --cpu-prof), written when the run ends. */
  cpuProf?: string;
  /** Issue 31's plain method instead (bench/plain.ts). */
  plain: boolean;
}

interface Run {
  reqPerSec: number;
  p50: number;
  p99: number;
  /** CPU time the server process spent per request (user + system), in µs: steadier than req/s on a busy machine. */
  cpuPerReq: number;
  /** Peak RSS of the server process so far, in MB. */
  maxRssMb: number;
  /** Why the numbers cannot be trusted (wrong statuses, socket errors), if so. */
  invalid?: string;
}

interface Row extends Run {
  target: string;
  /** The paired baseline runs. */
  node: Run;
  fastify: Run;
  /** The paired run of the features floor (bare Fastify + the app's headers, rate limit and metrics libraries). */
  floor: Run;
  /** The paired run of the answer floor: the features floor sending this target's own answer; none for a non-GET. */
  answer?: Run;
  budget?: number;
  /** The target's latency aim, in ms (BenchTarget.p99Budget). */
  p99Budget?: number;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      only: { type: 'string', multiple: true },
      // 10 s, or the plain method's 5 s.
      duration: { type: 'string' },
      connections: { type: 'string', default: '50' },
      warmup: { type: 'string', default: '2' },
      'cpu-prof': { type: 'string' },
      plain: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(
      'usage: npm run bench -- [--only <text>[,<text>]] [--duration <s>=10] [--connections <n>=50] [--warmup <s>=2] [--cpu-prof <folder>] [--plain: the plain method of issue 31, 5 s by default; see bench/plain.ts]',
    );
    process.exit(0);
  }
  const num = (name: string, raw: string, min: number) => {
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min) throw new Error(`--${name} must be a number ≥ ${min} (got "${raw}")`);
    return n;
  };
  return {
    only: (values.only ?? [])
      .flatMap((s) => s.split(','))
      .map((s) => s.trim())
      .filter(Boolean),
    duration: num('duration', values.duration ?? (values.plain ? '5' : '10'), 1),
    connections: num('connections', values.connections!, 1),
    warmup: num('warmup', values.warmup!, 0),
    cpuProf: values['cpu-prof'] ? path.resolve(values['cpu-prof']) : undefined,
    plain: values.plain ?? false,
  };
}

type Shape = Pick<BenchTarget, 'method' | 'headers' | 'body' | 'expectStatus' | 'paths' | 'background'>;

async function measure(server: Server, url: string, target: Shape, opts: Options) {
  // Background load (if any) runs through the warm-up and the measured run; its CPU is billed to the target.
  const stopBackground = target.background ? startBackground(url, target.background) : undefined;
  try {
    return await measureRun(server, url, target, opts);
  } finally {
    stopBackground?.();
  }
}

async function measureRun(server: Server, url: string, target: Shape, opts: Options): Promise<Run> {
  // A short warm-up so the JIT and the database page cache are hot before the measured run.
  if (opts.warmup > 0) await load(url, target, { duration: opts.warmup }, opts.connections);
  const before = await cpuOf(server);
  const r = await load(url, target, { duration: opts.duration }, opts.connections);
  const after = await cpuOf(server);
  const cpu = after.cpu - before.cpu;
  const wrong = target.expectStatus
    ? r.requests.total - (r.statusCodeStats?.[`${target.expectStatus}`]?.count ?? 0)
    : r.non2xx;
  return {
    reqPerSec: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    cpuPerReq: r.requests.total ? cpu / r.requests.total : 0,
    maxRssMb: after.maxRssMb,
    invalid: wrong > 0 || r.errors > 0 ? `${wrong} unexpected statuses, ${r.errors} errors` : undefined,
  };
}

/**
 * One row per target, each next to the bare node:http and bare Fastify runs made right before it. The CPU ratios
 * are the steady figures on a shared machine; `budget` is the ceiling for the ratio to the answer floor.
 */
function renderTable(rows: Row[]): string {
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const lines = [
    '| target | req/s | p50 ms | p99 ms | server CPU µs/req | × node:http CPU | × Fastify CPU | × floor CPU | answer floor × Fastify | × answer floor | budget (× answer floor; p99 aim) | peak RSS MB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const avg = (runs: Run[]): Run => ({
    reqPerSec: mean(runs.map((r) => r.reqPerSec)),
    p50: mean(runs.map((r) => r.p50)),
    p99: mean(runs.map((r) => r.p99)),
    cpuPerReq: mean(runs.map((r) => r.cpuPerReq)),
    maxRssMb: Math.max(...runs.map((r) => r.maxRssMb)),
  });
  const node = avg(rows.map((r) => r.node));
  const fastify = avg(rows.map((r) => r.fastify));
  const floor = avg(rows.map((r) => r.floor));
  const line = (
    name: string,
    r: Run,
    nodeCpu: number,
    fastifyCpu: number,
    floorCpu: number,
    budget?: number,
    answer?: Run,
    p99Budget?: number,
  ) => {
    const x = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : '–');
    const cells = [
      r.invalid ? `${name} ⚠ ${r.invalid}` : name,
      Math.round(r.reqPerSec),
      round1(r.p50),
      round1(r.p99),
      Math.round(r.cpuPerReq),
      x(r.cpuPerReq, nodeCpu),
      x(r.cpuPerReq, fastifyCpu),
      x(r.cpuPerReq, floorCpu),
      answer ? x(answer.cpuPerReq, fastifyCpu) : '',
      answer ? `${ratioText(r.cpuPerReq / answer.cpuPerReq, budget)}×` : '',
      [
        verdict(answer ? r.cpuPerReq / answer.cpuPerReq : Number.NaN, budget),
        latencyVerdict(r.p99, p99Budget, r.invalid),
      ]
        .filter(Boolean)
        .join('; '),
      Math.round(r.maxRssMb),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  };
  const means = [node.cpuPerReq, fastify.cpuPerReq, floor.cpuPerReq] as const;
  line('bare node:http (mean of paired runs)', node, ...means);
  line('bare Fastify 5 (mean of paired runs)', fastify, ...means);
  // The floor's own ratio to bare Fastify is what the required features cost before any code of the app.
  line('features floor: Fastify + headers, rate limit, metrics (mean of paired runs)', floor, ...means);
  for (const r of rows)
    line(r.target, r, r.node.cpuPerReq, r.fastify.cpuPerReq, r.floor.cpuPerReq, r.budget, r.answer, r.p99Budget);
  const summaries = [
    budgetSummary(
      rows.map((r) => ({
        name: r.target,
        ratio: r.answer ? r.cpuPerReq / r.answer.cpuPerReq : Number.NaN,
        budget: r.budget,
      })),
    ),
    latencySummary(rows.map((r) => ({ name: r.target, p99: r.p99, p99Budget: r.p99Budget, invalid: r.invalid }))),
  ].filter(Boolean);
  for (const summary of summaries) lines.push('', summary);
  return lines.join('\n');
}

const round1 = (n: number) => Math.round(n * 10) / 10;

async function main() {
  const opts = parseOptions(process.argv.slice(2));
  const targets = opts.only.length
    ? TARGETS.filter((t) => opts.only.some((o) => t.name.includes(o) || t.path.includes(o)))
    : TARGETS;
  if (!targets.length)
    throw new Error(
      `no target matches --only ${opts.only.join(',')}; targets: ${TARGETS.map((t) => t.name).join(', ')}`,
    );
  if (opts.plain) return runPlain(targets, opts);
  buildServer();
  console.error(
    `bench: ${targets.length} target(s), ${opts.duration} s each, ${opts.connections} connections, no pipelining; node ${process.version}, ${os.cpus().length} CPUs`,
  );

  const rows: Row[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tianji-bench-'));
  const servers: Server[] = [];
  try {
    const base = await startServer('baseline');
    servers.push(base);
    const bare = await startServer('fastify');
    servers.push(bare);
    const app = await startServer('app', [dir, ADMIN.username, ADMIN.password], opts.cpuProf);
    servers.push(app);
    const baseUrl = `http://127.0.0.1:${app.port}`;
    const floorServer = await startServer('floor', [JSON.stringify(await fixedHeadersOf(baseUrl))]);
    servers.push(floorServer);
    const ctx = appContext(baseUrl);
    for (const t of targets) {
      const request = await prepare(t, ctx);
      console.error(
        `bench: ${t.name} (paired with bare node:http, bare Fastify, features floor and answer floor runs) …`,
      );
      const node = await measure(base, `http://127.0.0.1:${base.port}/`, {}, opts);
      const fastify = await measure(bare, `http://127.0.0.1:${bare.port}/`, {}, opts);
      const floorUrl = `http://127.0.0.1:${floorServer.port}`;
      const floor = await measure(floorServer, `${floorUrl}/`, {}, opts);
      const sent = await answerOf(baseUrl, t, request);
      if (sent) await postAnswer(floorServer, sent);
      const answer = sent ? await measure(floorServer, `${floorUrl}/answer`, {}, opts) : undefined;
      // The first burst after a quiet spell: the app's idle threads stopped, and no warm-up to start them again.
      if (t.afterIdle) await stopIdleThreads(app);
      const run = await measure(
        app,
        baseUrl + request.path,
        { ...t, headers: request.headers },
        t.afterIdle ? { ...opts, warmup: 0 } : opts,
      );
      rows.push({ target: t.name, ...run, node, fastify, floor, answer, budget: t.budget, p99Budget: t.p99Budget });
    }
  } finally {
    await Promise.all(servers.map((x) => stopServer(x.child)));
    fs.rmSync(dir, { recursive: true, force: true });
  }

  console.log(renderTable(rows));
  if (opts.cpuProf)
    console.error(
      `bench: CPU profile of the app in ${opts.cpuProf} (summarise: npx tsx bench/profile-summary.ts <file>)`,
    );
}

main().catch((err) => {
  console.error(`bench failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
