/**
 * `npm run bench:memory [-- --requests 40 --concurrency 16 --phases data,images] [--direct]`
 *
 * Memory of the compiled server, started as `npm start` starts it (scripts/start.mjs: built first if its sources
 * changed, run by the launcher with the container's allocator setting; `--direct`: `node packages/server/dist/server.js`
 * itself, with only the environment given here), under
 * every public GET route at its largest allowed inputs (bench/memory-requests.ts derives the requests from the
 * app's OpenAPI document). Prints, per phase, RSS at its end and its peak (VmHWM, reset before each phase through
 * /proc/<pid>/clear_refs), read from /proc: Linux only. See bench/README.md.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  type OpenApiDocument,
  type Operation,
  PHASES,
  type Phase,
  publicGetOperations,
  requestUrl,
} from './memory-requests.js';
import { freePort, sleep, waitFor } from '../packages/server/test/cluster/services.js';
import { buildServer } from './harness.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const { values: opts } = parseArgs({
  options: {
    requests: { type: 'string', default: '40' },
    concurrency: { type: 'string', default: '16' },
    phases: { type: 'string', default: PHASES.join(',') },
    settle: { type: 'string', default: '2' },
    only: { type: 'string' },
    env: { type: 'string', multiple: true, default: [] },
    direct: { type: 'boolean', default: false },
  },
});
const REQUESTS = Number(opts.requests);
const CONCURRENCY = Number(opts.concurrency);
const SETTLE_MS = Number(opts.settle) * 1000;
const phases = opts.phases.split(',') as Phase[];
for (const p of phases) if (!PHASES.includes(p)) throw new Error(`unknown phase "${p}" (${PHASES.join(', ')})`);

interface Status {
  rss: number;
  hwm: number;
  anon: number;
  file: number;
  threads: number;
}

/** The process's memory from /proc/<pid>/status, in MB. */
function status(pid: number): Status {
  const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? Number.NaN) / 1024;
  return {
    rss: kb('VmRSS'),
    hwm: kb('VmHWM'),
    anon: kb('RssAnon'),
    file: kb('RssFile'),
    threads: kb('Threads') * 1024,
  };
}

/** The main thread's V8 heap and external memory (prom-client's default metrics at /metrics), in MB. */
async function mainThread(base: string): Promise<{ heap: number; external: number }> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const metric = (name: string) =>
    Number(new RegExp(`^tianji_${name}(?:\\{[^}]*\\})? (\\S+)`, 'm').exec(text)?.[1]) / 1048576;
  return { heap: metric('nodejs_heap_size_total_bytes'), external: metric('nodejs_external_memory_bytes') };
}

/** The one child process of `parent` (from /proc/<pid>/stat's ppid field). */
function childOf(parent: number): number {
  const children = fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent;
      } catch {
        return false; // ended meanwhile
      }
    });
  if (children.length !== 1)
    throw new Error(`expected one server process under the launcher, found ${children.length}`);
  return Number(children[0]);
}

/** Resets VmHWM to the current RSS (Linux ≥ 4.0), so that each phase's peak is its own. */
function resetPeak(pid: number): void {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** Routes that answered other than 2xx: count, and one such request with its answer, to fix a bad input. */
const failures = new Map<string, { count: number; sample: string }>();

/** Sends every request with `CONCURRENCY` in flight; returns the count per status code. */
async function send(base: string, urls: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const url = urls[next++];
      let code: string;
      try {
        const res = await fetch(base + url);
        const body = await res.arrayBuffer();
        code = String(res.status);
        if (!res.ok) {
          const route = url.split('?')[0];
          const f = failures.get(route) ?? {
            count: 0,
            sample: `${code} ${url.slice(0, 160)} → ${Buffer.from(body).toString('utf8', 0, 200)}`,
          };
          failures.set(route, { ...f, count: f.count + 1 });
        }
      } catch (err) {
        code = (err as Error).message;
      }
      counts.set(code, (counts.get(code) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return counts;
}

/** The phase's requests: REQUESTS per route, routes interleaved so that different routes are in flight together. */
function phaseUrls(ops: Operation[], phase: Phase, offset: number): string[] {
  const mine = phase === 'mixed' ? ops : ops.filter((o) => o.phase === phase);
  const urls: string[] = [];
  for (let k = 0; k < REQUESTS; k++) for (const op of mine) urls.push(requestUrl(op, offset + k));
  return urls;
}

async function main() {
  buildServer();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tianji-memory-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // An explicit environment: not the developer's DATABASE_URL, REDIS_URL or limits.
  const entry = opts.direct ? 'packages/server/dist/server.js' : 'scripts/start.mjs';
  const child = spawn(process.execPath, [path.join(root, entry)], {
    env: {
      PATH: process.env.PATH,
      DATA_DIR: dir,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'silent',
      ADMIN_PASSWORD: 'bench-password-123',
      RATE_LIMIT_MAX: '1000000000',
      // --env NAME=value: settings or allocator knobs to compare (MALLOC_ARENA_MAX=2, NODE_OPTIONS=…).
      ...Object.fromEntries(opts.env.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)])),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const rows: string[] = [];
  try {
    const ready = await waitFor(async () => child.exitCode !== null || (await fetch(`${base}/readyz`)).ok, 60_000);
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
    if (!ready) throw new Error('the server was not ready within 60 s');
    // Under the launcher, the server is the launcher's child.
    const pid = opts.direct ? child.pid! : childOf(child.pid!);
    await sleep(SETTLE_MS);
    const start = status(pid);
    rows.push(row('after start', '', 0, start, start.hwm, await mainThread(base), ''));
    const ops = publicGetOperations((await (await fetch(`${base}/openapi.json`)).json()) as OpenApiDocument).filter(
      (op) => !opts.only || opts.only.split(',').some((text) => op.path.includes(text)),
    );
    let peak = start.hwm;
    let offset = 0;
    for (const phase of phases) {
      resetPeak(pid);
      const urls = phaseUrls(ops, phase, offset);
      offset += REQUESTS;
      const counts = await send(base, urls);
      await sleep(SETTLE_MS);
      const s = status(pid);
      peak = Math.max(peak, s.hwm);
      const routes = phase === 'mixed' ? ops.length : ops.filter((o) => o.phase === phase).length;
      const codes = [...counts].map(([c, n]) => `${c}×${n}`).join(' ');
      rows.push(row(phase, String(routes), urls.length, s, s.hwm, await mainThread(base), codes));
    }
    console.log(
      `\nCompiled server (${opts.direct ? 'node packages/server/dist/server.js' : 'as npm start runs it'}), ${ops.length} public GET routes, ${REQUESTS} requests per route and phase, ` +
        `${CONCURRENCY} in flight; ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)}.\n`,
    );
    console.log(
      '| phase | routes | requests | RSS at end MB | peak RSS MB | anon / file MB | main heap / external MB | threads | statuses |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|');
    for (const r of rows) console.log(r);
    for (const [route, f] of failures) console.log(`\n${route}: ${f.count} not 2xx, e.g. ${f.sample}`);
    console.log(`\nAfter start ${start.rss.toFixed(0)} MB; peak over the run ${peak.toFixed(0)} MB (VmHWM).`);
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function row(
  phase: string,
  routes: string,
  requests: number,
  s: Status,
  peak: number,
  main: { heap: number; external: number },
  codes: string,
): string {
  const mb = (n: number) => n.toFixed(0);
  const cells = [phase, routes, requests || '', mb(s.rss), mb(peak), `${mb(s.anon)} / ${mb(s.file)}`];
  return `| ${[...cells, `${mb(main.heap)} / ${mb(main.external)}`, s.threads, codes].join(' | ')} |`;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
