/**
 * `npm run bench -- --plain [--only healthz,almanac]`: the plainest method, the one issue 31's outside run used, so
 * that anyone can reproduce its figures with nothing of the bench's own machinery in between:
 *
 * - the built server started as `node packages/server/dist/server.js` (`LOG_LEVEL=silent`, an empty data folder), in a
 *   process group of its own, with `RATE_LIMIT_MAX=1000000000`: the outside run's 1,000,000 a minute is reached within
 *   the minute on a machine that answers 40,000 requests a second (2026-11-28: 17,914 of license-plate's answers were
 *   429s), and the limit costs the same whatever its maximum;
 * - one target after another: bare Fastify answering `{hello:'world'}` (a process of its own too) loaded right
 *   before each target, then the target; each a 2 s warm-up, then 5 s at 50 connections with autocannon;
 * - each server's CPU read from /proc over its whole process group (every thread and child), before and after the
 *   measured seconds.
 *
 * No IPC with the servers, no answer floor, nothing side by side: the figure is the target's CPU per request ÷ bare
 * Fastify's. Linux only (/proc). Targets that need the bench's control of the app (afterIdle) are left out.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, waitFor } from '../packages/server/test/cluster/services.js';
import type { BenchTarget } from './bench-target.js';
import { ADMIN, appContext, buildServer, load, prepare, startBackground } from './harness.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

export interface PlainOptions {
  duration: number;
  warmup: number;
  connections: number;
}

/** CPU seconds (user + system) used so far by every process of group `pgid`. */
function groupCpu(pgid: number): number {
  let ticks = 0;
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    // Fields after the command name: state ppid pgrp … utime (14th field of the line) stime (15th).
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(f[2]) === pgid) ticks += Number(f[11]) + Number(f[12]);
  }
  return ticks / TICKS;
}

/** Starts `node <args>` as the leader of a new process group, and resolves once `ready` answers 200. */
async function startGroup(args: string[], env: NodeJS.ProcessEnv, ready: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env,
    detached: true,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const up = await waitFor(async () => child.exitCode !== null || (await fetch(ready)).ok, 60_000);
  if (!up || child.exitCode !== null) throw new Error(`bench --plain: ${args.join(' ')} did not start`);
  return child;
}

function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    process.kill(-child.pid!, 'SIGTERM');
  });
}

interface PlainRun {
  reqPerSec: number;
  p50: number;
  p99: number;
  cpuPerReq: number;
  wrong: number;
}

async function measure(
  pgid: number,
  url: string,
  target: Pick<BenchTarget, 'method' | 'headers' | 'body' | 'paths' | 'expectStatus' | 'background'>,
  opts: PlainOptions,
): Promise<PlainRun> {
  const stopBackground = target.background ? startBackground(url, target.background) : undefined;
  try {
    if (opts.warmup > 0) await load(url, target, { duration: opts.warmup }, opts.connections);
    const before = groupCpu(pgid);
    const r = await load(url, target, { duration: opts.duration }, opts.connections);
    const cpu = groupCpu(pgid) - before;
    const ok = target.expectStatus ? (r.statusCodeStats?.[`${target.expectStatus}`]?.count ?? 0) : r['2xx'];
    return {
      reqPerSec: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      cpuPerReq: r.requests.total ? (cpu * 1e6) / r.requests.total : Number.NaN,
      wrong: r.requests.total - ok + r.errors,
    };
  } finally {
    stopBackground?.();
  }
}

export async function runPlain(targets: BenchTarget[], opts: PlainOptions): Promise<void> {
  if (process.platform !== 'linux') throw new Error('bench --plain reads /proc: Linux only');
  buildServer();
  const measured = targets.filter((t) => !t.afterIdle);
  console.error(
    `bench --plain: ${measured.length} target(s), ${opts.warmup} s warm-up + ${opts.duration} s at ${opts.connections} connections each, after bare Fastify; node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)}`,
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tianji-plain-'));
  const groups: ChildProcess[] = [];
  try {
    const fastifyPort = await freePort();
    const fastify = await startGroup(
      [
        '--input-type=module',
        '-e',
        `import Fastify from 'fastify'; const app = Fastify(); app.get('/', async () => ({ hello: 'world' })); await app.listen({ port: ${fastifyPort}, host: '127.0.0.1' });`,
      ],
      { PATH: process.env.PATH },
      `http://127.0.0.1:${fastifyPort}/`,
    );
    groups.push(fastify);
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const app = await startGroup(
      [path.join(root, 'packages/server/dist/server.js')],
      {
        PATH: process.env.PATH,
        DATA_DIR: dir,
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'silent',
        RATE_LIMIT_MAX: '1000000000',
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
      },
      `${baseUrl}/readyz`,
    );
    groups.push(app);
    const ctx = appContext(baseUrl);
    console.log(
      '| target | req/s | p50 ms | p99 ms | server CPU µs/req | bare Fastify req/s | bare Fastify CPU µs/req | × bare Fastify CPU |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const t of measured) {
      const request = await prepare(t, ctx);
      console.error(`bench --plain: ${t.name} …`);
      const bare = await measure(fastify.pid!, `http://127.0.0.1:${fastifyPort}/`, {}, opts);
      const run = await measure(app.pid!, baseUrl + request.path, { ...t, headers: request.headers }, opts);
      const warn = run.wrong > 0 ? ` ⚠ ${run.wrong} wrong statuses or errors` : '';
      console.log(
        `| ${t.name}${warn} | ${Math.round(run.reqPerSec)} | ${run.p50} | ${run.p99} | ${Math.round(run.cpuPerReq)} | ${Math.round(bare.reqPerSec)} | ${Math.round(bare.cpuPerReq)} | ${(run.cpuPerReq / bare.cpuPerReq).toFixed(2)}× |`,
      );
    }
  } finally {
    await Promise.all(groups.map(stopGroup));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
