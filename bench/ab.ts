/**
 * `npm run bench:ab -- --base <git revision> [--only healthz,auth/me] [--duration 5] [--rounds 3]`
 *
 * Compares the server CPU per request of this checkout ("this") with another revision ("base") by loading **both at
 * the same time**: each gets half the connections for the same seconds, so whatever else the machine does in those
 * seconds (a neighbour's job, the host) falls on both alike. Measured one after the other, as `npm run bench` does,
 * two runs of identical code differ by ±20 % on a shared 2-core machine, which hides a change of a few per cent;
 * side by side, identical code gives ratios of 0.95–1.04. Prints each round's ratio (this ÷ base) and the median.
 *
 * The base revision is checked out with `git worktree` into a temporary folder that borrows this checkout's
 * node_modules, and runs this checkout's bench/server.ts (so both are started the same way); both use SQLite. Both
 * servers run compiled, as `npm start` runs them (harness.ts buildServer).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { BenchContext, BenchTarget } from './bench-target.js';
import {
  ADMIN,
  appContext,
  buildServer,
  cpuOf,
  load,
  prepare,
  type Server,
  startServer,
  stopServer,
} from './harness.js';
import { TARGETS } from './targets.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    only: { type: 'string', default: 'healthz' },
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
  },
});
const duration = Number(values.duration);
const rounds = Number(values.rounds);
const connections = Number(values.connections);
if (!values.base || !(duration >= 1) || !(rounds >= 1) || !(connections >= 2))
  throw new Error(
    'usage: npm run bench:ab -- --base <git revision> [--only <text>[,<text>]=healthz] [--duration <s>=5] [--rounds <n>=3] [--connections <n>=50, split between the two]',
  );
const only = values.only.split(',').map((s) => s.trim());
const targets = TARGETS.filter((t) => only.some((o) => t.name.includes(o) || t.path.includes(o)));
if (!targets.length) throw new Error(`no target matches --only ${values.only}`);

/** A checkout of `rev` in a temporary folder, runnable with this checkout's packages. */
function worktree(rev: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tianji-ab-'));
  execFileSync('git', ['-C', root, 'worktree', 'add', '--detach', '--quiet', dir, rev], { stdio: 'inherit' });
  // Dependencies installed inside a workspace package (e.g. packages/server/node_modules) are borrowed too.
  for (const nm of ['node_modules', 'packages/server/node_modules'])
    if (fs.existsSync(path.join(root, nm))) fs.symlinkSync(path.join(root, nm), path.join(dir, nm));
  fs.copyFileSync(path.join(root, 'bench/server.ts'), path.join(dir, 'bench/server.ts'));
  return dir;
}

type App = Server & { ctx: BenchContext };

async function startApp(entry: string | undefined, dataDir: string): Promise<App> {
  const server = await startServer('app', [dataDir, ADMIN.username, ADMIN.password], undefined, entry);
  return { ...server, ctx: appContext(`http://127.0.0.1:${server.port}`) };
}

/**
 * Loads one app with a prepared target for `seconds` (half the connections: the other app gets the other half) and
 * returns its CPU µs per request, NaN when an answer was not 2xx.
 */
async function cpuPerRequest(
  app: App,
  t: BenchTarget,
  request: { path: string; headers: Record<string, string> },
  seconds: number,
): Promise<number> {
  const before = (await cpuOf(app)).cpu;
  const r = await load(
    app.ctx.baseUrl + request.path,
    { ...t, headers: request.headers },
    seconds,
    Math.floor(connections / 2),
  );
  const after = (await cpuOf(app)).cpu;
  return r.non2xx || r.errors || !r.requests.total ? Number.NaN : (after - before) / r.requests.total;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  buildServer();
  const tree = worktree(values.base!);
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'tianji-ab-data-'));
  const apps: Server[] = [];
  try {
    buildServer(tree);
    fs.mkdirSync(path.join(data, 'base'));
    fs.mkdirSync(path.join(data, 'this'));
    const base = await startApp(path.join(tree, 'bench/server.ts'), path.join(data, 'base'));
    apps.push(base);
    const self = await startApp(undefined, path.join(data, 'this'));
    apps.push(self);
    console.error(`bench:ab: base ${values.base} against this checkout, ${rounds} × ${duration} s side by side`);
    console.log('| target | base µs/req | this µs/req | this ÷ base, each round | median |');
    console.log('|---|---:|---:|---|---:|');
    for (const t of targets) {
      // Each app's setup runs once per target (a sign-in), not once per round.
      const [baseRequest, selfRequest] = await Promise.all([prepare(t, base.ctx), prepare(t, self.ctx)]);
      const both = (seconds: number) =>
        Promise.all([cpuPerRequest(base, t, baseRequest, seconds), cpuPerRequest(self, t, selfRequest, seconds)]);
      await both(2); // warm-up, not measured
      const pairs: [number, number][] = [];
      for (let i = 0; i < rounds; i++) pairs.push(await both(duration));
      const ratios = pairs.map(([b, s]) => s / b);
      const cell = (xs: number[]) => median(xs).toFixed(1);
      console.log(
        `| ${t.name} | ${cell(pairs.map((p) => p[0]))} | ${cell(pairs.map((p) => p[1]))} | ${ratios.map((r) => r.toFixed(3)).join(' ')} | ${median(ratios).toFixed(3)} |`,
      );
    }
  } finally {
    await Promise.all(apps.map((a) => stopServer(a.child)));
    execFileSync('git', ['-C', root, 'worktree', 'remove', '--force', tree]);
    fs.rmSync(data, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`bench:ab failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
