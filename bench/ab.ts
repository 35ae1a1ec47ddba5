/**
 * `npm run bench:ab -- --base <git revision> [--only healthz,auth/me] [--starts 4] [--duration 5] [--rounds 1]`
 *
 * Compares the server CPU per request of this checkout ("this") with another revision ("base") by loading **both at
 * the same time**: each gets half the connections for the same seconds, so whatever else the machine does in those
 * seconds (a neighbour's job, the host) falls on both alike. Measured one after the other, as `npm run bench` does,
 * two runs of identical code differ by ±20 % on a shared 2-core machine, which hides a change of a few per cent;
 * side by side, neither of two processes is favoured by its place in the pair, but one start of the pair differs from
 * the next by up to ±20 % (2026-11-27: single-start medians of 0.870–1.205 for a build against a copy of itself).
 * So both apps are started afresh for each of `--starts` (each started first in turn), and the median is taken over
 * the rounds of every start. Prints each start's rounds (this ÷ base) and the median.
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
import type { BenchContext } from './bench-target.js';
import {
  ADMIN,
  appContext,
  buildServer,
  median,
  prepareAndWarm,
  roundsOf,
  STARTS_OPTIONS,
  sideBySide,
  sideBySideOf,
  startsOf,
  type Server,
  startInOrder,
  startServer,
  stopServer,
} from './harness.js';
import { TARGETS } from './targets.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    // Instead of --base: a saved build of the server (a copy of packages/server/dist beside it), run by this checkout.
    'base-dist': { type: 'string' },
    // This checkout's packages/server/dist as it is (after `npm run build -w @tianji/server`), not built first.
    'no-build': { type: 'boolean', default: false },
    only: { type: 'string', default: 'healthz' },
    // Both apps started afresh for each start, each first in turn.
    ...STARTS_OPTIONS,
  },
});
const USAGE =
  'usage: npm run bench:ab -- --base <git revision> | --base-dist <saved build folder> [--only <text>[,<text>]=healthz] [--starts <n>=4] [--duration <s>=5] [--rounds <n>=1, per start] [--connections <n>=50, split between the two]';
const opts = sideBySideOf(values, USAGE);
const starts = startsOf(values, USAGE);
if (!values.base === !values['base-dist']) throw new Error(USAGE);
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

async function startApp(entry: string | undefined, dataDir: string, dist?: string): Promise<App> {
  // bench/server.ts reads BENCH_SERVER_DIST from the environment it is forked with.
  if (dist) process.env.BENCH_SERVER_DIST = path.resolve(dist);
  const server = await startServer('app', [dataDir, ADMIN.username, ADMIN.password], undefined, entry).finally(
    () => delete process.env.BENCH_SERVER_DIST,
  );
  return { ...server, ctx: appContext(`http://127.0.0.1:${server.port}`) };
}

async function main() {
  if (!values['no-build']) buildServer();
  const baseDist = values['base-dist'];
  const tree = baseDist ? undefined : worktree(values.base!);
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'tianji-ab-data-'));
  try {
    if (tree) buildServer(tree);
    console.error(
      `bench:ab: base ${values.base ?? baseDist} against this checkout, ${starts} start(s) of both apps, ${opts.rounds} × ${opts.duration} s side by side per start`,
    );
    const byTarget = new Map<string, { pairs: [number, number][]; ratios: number[][] }>();
    for (let s = 0; s < starts; s++) {
      const apps: App[] = [];
      try {
        const dirs = ['base', 'this'].map((name) => fs.mkdtempSync(path.join(data, `${name}-`)));
        const startBase = () =>
          tree ? startApp(path.join(tree, 'bench/server.ts'), dirs[0]) : startApp(undefined, dirs[0], baseDist);
        const startThis = () => startApp(undefined, dirs[1]);
        // Each app is started first in every other start, so neither is always the older process.
        const [base, self] = await startInOrder(s, [startBase, startThis]);
        apps.push(base, self);
        // Each app's setup runs once per target and start (a sign-in, an API key), not once per round; both apps serve
        // every budgeted target before any is measured, one after the other.
        const baseRequests = await prepareAndWarm(base.ctx, targets, 'bench:ab');
        const selfRequests = await prepareAndWarm(self.ctx, targets, 'bench:ab');
        for (const t of targets) {
          const [baseRequest, selfRequest] = [baseRequests.get(t)!, selfRequests.get(t)!];
          const { pairs, ratios } = await sideBySide(
            { server: base, url: base.ctx.baseUrl + baseRequest.path, target: { ...t, headers: baseRequest.headers } },
            { server: self, url: self.ctx.baseUrl + selfRequest.path, target: { ...t, headers: selfRequest.headers } },
            opts,
          );
          let got = byTarget.get(t.name);
          if (!got) byTarget.set(t.name, (got = { pairs: [], ratios: [] }));
          got.pairs.push(...pairs);
          got.ratios.push(ratios);
        }
      } finally {
        await Promise.all(apps.map((a) => stopServer(a.child)));
      }
    }
    console.log('| target | base µs/req | this µs/req | this ÷ base, each start | median |');
    console.log('|---|---:|---:|---|---:|');
    for (const t of targets) {
      const got = byTarget.get(t.name)!;
      const cell = (xs: number[]) => median(xs).toFixed(1);
      const ratios = roundsOf(got.ratios, 3);
      console.log(
        `| ${t.name} | ${cell(got.pairs.map((p) => p[0]))} | ${cell(got.pairs.map((p) => p[1]))} | ${ratios.text} | ${ratios.median.toFixed(3)} |`,
      );
    }
  } finally {
    if (tree) execFileSync('git', ['-C', root, 'worktree', 'remove', '--force', tree]);
    fs.rmSync(data, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`bench:ab failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
