/**
 * `npx tsx bench/callgrind-ab.ts [--base packages/server/dist-base] [--only almanac,hitokoto] [--requests 400]
 *  [--warmup 1500] [--connections 1] [--no-build]` (default: every budgeted GET target)
 *
 * Machine instructions per request, counted by valgrind's callgrind, of two builds of the app — an earlier one saved
 * as a folder beside packages/server/dist (`cp -r packages/server/dist packages/server/dist-base` before the change)
 * and this checkout's — and of each target's answer floor, all started as bench:floors starts them (bench/server.ts).
 * Without `--base`, this checkout against the answer floors only.
 * Unlike CPU time, an instruction count does not depend on how busy the machine is. It still varies between runs
 * (a timer of the app firing inside the span, where a garbage collection falls), so read several targets and runs.
 * It is not CPU time (a cache miss or a system call counts as one instruction, the kernel's work is not counted), so
 * the budgets are still judged by bench:floors; this shows what a change removes.
 *
 * Every server runs under valgrind in a child process, with V8 on one thread (`--single-threaded`: no compiler or GC
 * helper threads, whose work would land in whichever span it happened to run), counting only around the measured
 * requests: start-up and warm-up run uninstrumented (about 5× slower than native instead of 50×). For each target:
 * `--warmup` requests, callgrind's instrumentation on, a full garbage collection (`--expose-gc`: a major collection
 * that earlier requests started would otherwise land in the span), the counters zeroed, `--requests` requests over
 * `--connections` keep-alive connections (one by default: with more, how many requests share an event-loop turn
 * varies between runs), a dump (its total ÷ the requests), instrumentation off. callgrind reads these commands only
 * while the program runs, so a request of the target carries each (and is counted).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  ADMIN,
  answerOf,
  appContext,
  buildServer,
  fixedHeadersOf,
  postAnswer,
  prepare,
  type Server,
  stopServer,
} from './harness.js';
import type { ReadyMessage, ServerKind } from './server.js';
import { TARGETS } from './targets.js';

const here = path.dirname(fileURLToPath(import.meta.url));

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    requests: { type: 'string', default: '400' },
    warmup: { type: 'string', default: '1500' },
    connections: { type: 'string', default: '1' },
    base: { type: 'string' },
    // Measure packages/server/dist as it is (after `npm run build -w @tianji/server`), without building everything first.
    'no-build': { type: 'boolean', default: false },
  },
});
const requests = Number(values.requests);
const warmup = Number(values.warmup);
const connections = Number(values.connections);
if (!(requests >= 1 && warmup >= 0 && connections >= 1))
  throw new Error(
    'usage: npx tsx bench/callgrind-ab.ts [--base <saved build folder>] [--only <text>[,<text>]] [--requests <n>=400] [--warmup <n>=1500] [--connections <n>=1] [--no-build]',
  );
// Without --base: this build against each target's answer floor only.
const baseDist = values.base ? path.resolve(values.base) : undefined;
if (baseDist && !fs.existsSync(path.join(baseDist, 'app.js')))
  throw new Error(`--base ${values.base}: no app.js in it`);
const only = values.only?.split(',').map((s) => s.trim());
const targets = TARGETS.filter(
  (t) =>
    (t.method ?? 'GET') === 'GET' &&
    !t.paths &&
    !t.background &&
    (only ? only.some((o) => t.name.includes(o) || t.path.includes(o)) : t.budget !== undefined),
);
if (!targets.length) throw new Error(`no GET target matches --only ${values.only}`);

interface Counted extends Server {
  /** callgrind's output file of the process: `<file>.<n>` for each dump. */
  out: string;
  dumps: number;
}

/** bench/server.ts under callgrind, IPC as startServer's children have it. */
function startCounted(
  kind: ServerKind,
  args: string[],
  dir: string,
  name: string = kind,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Counted> {
  const out = path.join(dir, `${name}.callgrind`);
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--quiet',
      // Counted only around the measured requests (perRequest): start-up and warm-up run uninstrumented, ~5× faster.
      '--instr-atstart=no',
      `--callgrind-out-file=${out}`,
      process.execPath,
      '--single-threaded',
      '--expose-gc',
      '--import',
      import.meta.resolve('tsx'),
      path.join(here, 'server.ts'),
      kind,
      ...args,
    ],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env },
  );
  return new Promise((resolve, reject) => {
    child.once('message', (m: ReadyMessage) => resolve({ child, port: m.port, out, dumps: 0 }));
    child.once('exit', (code) => reject(new Error(`${name} server under valgrind exited early (code ${code})`)));
    child.once('error', reject);
  });
}

/** Sends `n` GET requests over `connections` keep-alive connections, each waiting for its answer; throws on non-2xx/304. */
async function send(url: string, headers: Record<string, string>, n: number, conns = connections): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: conns });
  let left = n;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      http
        .get(url, { agent, headers }, (res) => {
          res.resume();
          res.on('end', () =>
            res.statusCode! < 400 ? resolve() : reject(new Error(`${url} answered ${res.statusCode}`)),
          );
        })
        .on('error', reject);
    });
  await Promise.all(
    Array.from({ length: Math.min(conns, n) }, async () => {
      while (left > 0) {
        left--;
        await one();
      }
    }),
  );
  agent.destroy();
}

/**
 * Runs `callgrind_control <args> <pid>` and sends the server requests (`poke`) until it has answered: callgrind reads
 * its commands only while the program runs.
 */
async function control(server: Counted, args: string[], poke: () => Promise<void>): Promise<void> {
  const child = spawn('callgrind_control', [...args, String(server.child.pid)], { stdio: 'ignore' });
  let exited = false;
  const done = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  for (let polled = 0; !exited; polled++) {
    if (polled > 600) throw new Error(`callgrind_control ${args.join(' ')} got no answer`);
    await poke();
    await new Promise((r) => setTimeout(r, 100));
  }
  await done;
}

/** Has the server run a full garbage collection (bench/server.ts 'gc'), so that none is under way in the next span. */
function collect(server: Counted): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (m: { gcDone?: boolean }) => {
      if (!m?.gcDone) return;
      server.child.off('message', onMessage);
      resolve();
    };
    server.child.on('message', onMessage);
    server.child.send('gc');
  });
}

/**
 * Instructions per request of `url` on `server`: warm-up (uninstrumented, so fast), then callgrind's instrumentation
 * on and its counters zeroed, the measured requests, a dump (its total ÷ the requests), instrumentation off.
 */
async function perRequest(server: Counted, url: string, headers: Record<string, string>): Promise<number> {
  let poked = 0;
  const poke = async () => {
    poked++;
    await send(url, headers, 1, 1);
  };
  await send(url, headers, warmup);
  await control(server, ['--instr=on'], poke);
  await collect(server);
  await control(server, ['--zero'], poke);
  poked = 0;
  await send(url, headers, requests);
  await control(server, ['--dump'], poke);
  server.dumps++;
  const file = `${server.out}.${server.dumps}`;
  const text = fs.readFileSync(file, 'utf8');
  await control(server, ['--instr=off'], poke);
  const total = /^(?:summary|totals): (\d+)/m.exec(text);
  if (!total) throw new Error(`no total in ${file}`);
  // The requests that carried the zero and dump commands were served inside the measured span (about one each).
  return Number(total[1]) / (requests + Math.max(poked - 1, 0));
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function main() {
  if (spawnSync('valgrind', ['--version']).status !== 0) throw new Error('callgrind-ab needs valgrind on PATH');
  if (!values['no-build']) buildServer();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tianji-callgrind-'));
  const servers: Counted[] = [];
  try {
    // No password-strength check of the seeded administrator's password (compiling zxcvbn's word lists on a thread
    // takes minutes under valgrind, past the compile's time limit), and no limit on a plugin's start (loading the
    // route modules takes longer than Fastify's 10 s).
    const slow = JSON.stringify({ env: { PASSWORD_MIN_SCORE: '0' }, pluginTimeout: 0 });
    const appArgs = (name: string) => {
      fs.mkdirSync(path.join(dir, name));
      return [path.join(dir, name), ADMIN.username, ADMIN.password, slow];
    };
    const [base, self] = await Promise.all([
      baseDist
        ? startCounted('app', appArgs('base'), dir, 'base', { ...process.env, BENCH_SERVER_DIST: baseDist })
        : undefined,
      startCounted('app', appArgs('this'), dir, 'this'),
    ]);
    servers.push(self, ...(base ? [base] : []));
    const selfUrl = `http://127.0.0.1:${self.port}`;
    const baseUrl = base && `http://127.0.0.1:${base.port}`;
    const floor = await startCounted('floor', [JSON.stringify(await fixedHeadersOf(selfUrl))], dir);
    servers.push(floor);
    console.error(
      `callgrind-ab: ${targets.length} target(s), ${warmup} warm-up + ${requests} counted requests each, ${connections} connections`,
    );
    console.log(
      '| target | answer floor instr/req | base instr/req | this instr/req | this ÷ base | base ÷ floor | this ÷ floor | budget |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const t of targets) {
      const selfRequest = await prepare(t, appContext(selfUrl));
      const baseRequest = baseUrl && (await prepare(t, appContext(baseUrl)));
      const answer = await answerOf(selfUrl, t, selfRequest);
      if (!answer) {
        console.error(`callgrind-ab: ${t.name} did not answer 2xx; skipped`);
        continue;
      }
      await postAnswer(floor, answer);
      const f = await perRequest(floor, `http://127.0.0.1:${floor.port}/answer`, {});
      const b =
        base && baseUrl && baseRequest ? await perRequest(base, baseUrl + baseRequest.path, baseRequest.headers) : NaN;
      const a = await perRequest(self, selfUrl + selfRequest.path, selfRequest.headers);
      const or = (n: number, text: string) => (Number.isNaN(n) ? '—' : text);
      console.log(
        `| ${t.name} | ${fmt(f)} | ${or(b, fmt(b))} | ${fmt(a)} | ${or(b, (a / b).toFixed(3))} | ${or(b, `${(b / f).toFixed(2)}×`)} | ${(a / f).toFixed(2)}× | ${t.budget ? `≤ ${t.budget}×` : ''} |`,
      );
    }
  } finally {
    await Promise.all(servers.map((s) => stopServer(s.child)));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`callgrind-ab failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
