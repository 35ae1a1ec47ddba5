/**
 * `npm run bench:keyed [-- --path /api/almanac?date=2026-11-21] [--rounds 6] [--duration 5] [--connections 50]
 *  [--header x-trace:value]`
 *
 * Issue 32's figure: what a caller with an API key costs in server CPU per request against the same request made
 * anonymously (budget: at most 10 % more). Two apps of this build are loaded **side by side** (half the connections
 * each, the same seconds, as bench:ab does), one with the key and one without, and the two swap roles every round,
 * so that neither a busy moment of the machine nor a difference between the two processes lands on one side only.
 * Each round's ratio is keyed ÷ anonymous; each pair of rounds (the key on one app, then on the other) gives their
 * geometric mean, in which the two processes' own difference cancels out; the median of the pairs is judged. Measured one after the other on this shared 2-core
 * machine, two runs of the same request differ by ±20 % and more, which hides a 10 % budget.
 *
 * The key is created in each app through the admin API, with limits the load cannot reach, so every keyed request
 * pays the whole key step (hash, cached lookup, checks, quota count, RateLimit headers) and none is refused. Both
 * apps count per-IP and per-key windows in memory (no Redis), as a single-process deployment does.
 *
 * `--header name:value` sends that header on the anonymous side instead of nothing: a control that shows what a
 * request header of the key's size costs by itself (parsing it, not acting on it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  ADMIN,
  appContext,
  buildServer,
  median,
  type Server,
  SIDE_BY_SIDE_OPTIONS,
  sideBySide,
  sideBySideOf,
  startServer,
  stopServer,
} from './harness.js';
import { KEYED_BUDGET, withApiKey } from './targets.js';

const { values } = parseArgs({
  options: {
    ...SIDE_BY_SIDE_OPTIONS,
    rounds: { type: 'string', default: '6' },
    path: { type: 'string', default: '/api/almanac?date=2026-11-21' },
    header: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
  },
});
const USAGE =
  'usage: npm run bench:keyed -- [--path <public path>=/api/almanac?date=2026-11-21] [--rounds <n>=6, even] [--duration <s>=5] [--connections <n>=50, split between the two] [--header name:value on the anonymous side]';
const opts = sideBySideOf(values, USAGE);
if (opts.rounds % 2) throw new Error(USAGE);
const control = values.header?.split(/:(.*)/s);
if (control && (!control[0] || control[1] === undefined)) throw new Error(USAGE);

async function main() {
  if (!values['no-build']) buildServer();
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'tianji-keyed-'));
  const apps: Server[] = [];
  try {
    for (const name of ['a', 'b']) {
      fs.mkdirSync(path.join(data, name));
      apps.push(await startServer('app', [path.join(data, name), ADMIN.username, ADMIN.password]));
    }
    const urls = apps.map((a) => `http://127.0.0.1:${a.port}`);
    const keyHeaders = await Promise.all(urls.map(async (u) => (await withApiKey(appContext(u))).headers));
    const anonymous = control ? { [control[0].trim()]: control[1].trim() } : {};
    console.error(
      `bench:keyed: ${values.path}, ${opts.rounds} × ${opts.duration} s side by side, ${opts.connections} connections split; node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)}`,
    );
    const keyed: number[] = [];
    const anon: number[] = [];
    const ratios: number[] = [];
    // One round at a time, the key on app a in even rounds and on app b in odd ones.
    for (let round = 0; round < opts.rounds; round++) {
      const k = round % 2;
      const load = (i: number) => ({
        server: apps[i],
        url: urls[i] + values.path,
        target: { headers: i === k ? keyHeaders[i] : anonymous },
      });
      const { pairs } = await sideBySide(load(1 - k), load(k), { ...opts, rounds: 1 });
      const [a, b] = pairs[0];
      anon.push(a);
      keyed.push(b);
      ratios.push(b / a);
    }
    // A pair of rounds (the key on a, then on b) cancels what differs between the two processes: its geometric mean.
    const pairs = ratios.flatMap((r, i) => (i % 2 ? [Math.sqrt(ratios[i - 1] * r)] : []));
    const ratio = median(pairs);
    console.log(
      '| path | anonymous µs/req | keyed µs/req | keyed ÷ anonymous, each round | each pair of rounds | median of the pairs | budget |',
    );
    console.log('|---|---:|---:|---|---|---:|---:|');
    console.log(
      `| ${values.path}${control ? ` (anonymous with ${control[0]})` : ''} | ${median(anon).toFixed(1)} | ${median(keyed).toFixed(1)} | ${ratios.map((r) => r.toFixed(3)).join(' ')} | ${pairs.map((r) => r.toFixed(3)).join(' ')} | ${ratio.toFixed(3)} | ≤ ${KEYED_BUDGET}×: ${ratio <= KEYED_BUDGET ? 'met' : '**not met**'} |`,
    );
  } finally {
    await Promise.all(apps.map((a) => stopServer(a.child)));
    fs.rmSync(data, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`bench:keyed failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
