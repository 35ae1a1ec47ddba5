/**
 * `npx tsx bench/instructions.ts --only random-user,random-person [--requests 1000] [--warmup 1500]`
 *
 * Instructions per request instead of CPU time. Bare Fastify, the answer floor and the app run as bench:floors
 * starts them (bench/server.ts), each under valgrind's callgrind, which starts counting once the server listens
 * (its start, uncounted, runs about 5 times slower instead of 50). For each target every server gets `--warmup`
 * requests, then `--requests` requests at `--connections` (25: the half of 50 that bench:floors gives each server)
 * between a reset and a dump of its counters.
 *
 * An instruction count does not depend on what else the machine runs, so on a shared, busy machine it compares two
 * revisions where CPU time cannot (±20 % between minutes). It is not CPU time: a cache miss or a system call counts
 * like an add, so the ratios differ from bench:floors' CPU ratios; the budgets stay stated in those. Needs `valgrind`
 * and `callgrind_control` on PATH.
 */
import { execFileSync, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
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

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    requests: { type: 'string', default: '1000' },
    warmup: { type: 'string', default: '1500' },
    connections: { type: 'string', default: '25' },
  },
});
const requests = Number(values.requests);
const warmup = Number(values.warmup);
const connections = Number(values.connections);
if (!values.only || !(requests >= 1) || !(warmup >= 0) || !(connections >= 1))
  throw new Error(
    'usage: npx tsx bench/instructions.ts --only <text>[,<text>] [--requests <n>=1000] [--warmup <n>=1500] [--connections <n>=25]',
  );
const only = values.only.split(',').map((s) => s.trim());
const targets = TARGETS.filter(
  (t) => (t.method ?? 'GET') === 'GET' && only.some((o) => t.name.includes(o) || t.path.includes(o)),
);
if (!targets.length) throw new Error(`no GET target matches --only ${values.only}`);

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tianji-callgrind-'));

/** bench/server.ts under callgrind, counting from the moment it listens. */
async function startUnderCallgrind(kind: ServerKind, args: string[] = []): Promise<Server> {
  const child = fork(path.join(here, 'server.ts'), [kind, ...args], {
    execPath: 'valgrind',
    execArgv: [
      '--tool=callgrind',
      '--quiet',
      '--instr-atstart=no',
      `--callgrind-out-file=${path.join(outDir, `${kind}.%p`)}`,
      process.execPath,
      '--import',
      import.meta.resolve('tsx'),
      // Fastify's 10 s plugin timeout would stop the app's start under valgrind.
      '--import',
      import.meta.resolve('./callgrind-preload.mjs'),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const server = await new Promise<Server>((resolve, reject) => {
    child.once('message', (m: ReadyMessage) => resolve({ child, port: m.port }));
    child.once('exit', (code) => reject(new Error(`${kind} server exited early under valgrind (code ${code})`)));
    child.once('error', reject);
  });
  execFileSync('callgrind_control', ['-i', 'on', String(child.pid)], { stdio: 'ignore' });
  return server;
}

// Under valgrind a request can wait seconds (code is translated afresh once counting starts): no timeouts.
const fire = (url: string, headers: Record<string, string>, amount: number) =>
  autocannon({ url, headers, amount, connections, pipelining: 1, timeout: 600 });

/** Instructions per request of `server` answering `url`: warm-up, reset, `requests` requests, dump, read the total. */
async function instructionsPerRequest(server: Server, url: string, headers: Record<string, string> = {}) {
  if (warmup) await fire(url, headers, warmup);
  const pid = String(server.child.pid);
  execFileSync('callgrind_control', ['-z', pid], { stdio: 'ignore' });
  const r = await fire(url, headers, requests);
  const before = new Set(fs.readdirSync(outDir));
  execFileSync('callgrind_control', ['-d', pid], { stdio: 'ignore' });
  const dump = fs.readdirSync(outDir).find((f) => !before.has(f) && f.includes(`.${pid}.`));
  if (!dump) throw new Error(`callgrind wrote no dump for ${url}`);
  const totals = /^totals: (\d+)/m.exec(fs.readFileSync(path.join(outDir, dump), 'utf8'));
  if (!totals) throw new Error(`no totals in ${dump}`);
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} answers not 2xx, ${r.errors} errors`);
  return Number(totals[1]) / r.requests.total;
}

async function main() {
  buildServer();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tianji-instructions-'));
  const servers: Server[] = [];
  try {
    const bare = await startUnderCallgrind('fastify');
    servers.push(bare);
    const app = await startUnderCallgrind('app', [dir, ADMIN.username, ADMIN.password]);
    servers.push(app);
    const baseUrl = `http://127.0.0.1:${app.port}`;
    const floor = await startUnderCallgrind('floor', [JSON.stringify(await fixedHeadersOf(baseUrl))]);
    servers.push(floor);
    const ctx = appContext(baseUrl);
    console.log(
      '| target | bare Fastify instr./req | answer floor instr./req | app instr./req | answer floor ÷ Fastify | app ÷ answer floor | app ÷ Fastify |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    const k = (n: number) => `${Math.round(n / 1000).toLocaleString('en')} k`;
    for (const t of targets) {
      const request = await prepare(t, ctx);
      const answer = await answerOf(baseUrl, t, request);
      if (!answer) {
        console.error(`bench/instructions: ${t.name} did not answer 2xx; skipped`);
        continue;
      }
      await postAnswer(floor, answer);
      const f = await instructionsPerRequest(bare, `http://127.0.0.1:${bare.port}/`);
      const fl = await instructionsPerRequest(floor, `http://127.0.0.1:${floor.port}/answer`);
      const a = await instructionsPerRequest(app, baseUrl + request.path, request.headers);
      console.log(
        `| ${t.name} | ${k(f)} | ${k(fl)} | ${k(a)} | ${(fl / f).toFixed(2)}× | ${(a / fl).toFixed(2)}× | ${(a / f).toFixed(2)}× |`,
      );
    }
  } finally {
    await Promise.all(servers.map((s) => stopServer(s.child)));
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`bench/instructions failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
