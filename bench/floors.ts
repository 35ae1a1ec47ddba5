/**
 * `npm run bench:floors [-- --only almanac,hitokoto] [--starts 4] [--duration 5] [--rounds 1]` (default: every budgeted
 * target)
 *
 * Answers, for each target, three questions with pairs of servers loaded **side by side** (as bench:ab does: half the
 * connections each, the same seconds, so the machine's drift falls on both):
 *
 * 1. *answer floor ÷ bare Fastify*: what bare Fastify costs a request once it carries the features every public
 *    answer must keep (the app's fixed headers, @fastify/rate-limit, the app's duration histogram) and sends this target's
 *    own answer (its bytes, type, ETag and Cache-Control) — with no code of the app. Where this is above the target's
 *    budget, no implementation on Fastify that keeps those features and that answer can meet the budget.
 * 2. *app ÷ answer floor*: what the app costs above that: its own work (routing to the area, query validation, the
 *    memo, the handler, the envelope, usage counts).
 * 3. *app ÷ bare Fastify*: printed beside the budget, which issue 31 states against the answer floor (2.).
 *
 * Before a start measures anything, its app serves every budgeted target's request 2,000 times (harness.ts prepareAndWarm),
 * so that each target is measured on an app that has served them all, as a running service has.
 *
 * Each **start** runs every target with bare Fastify, the app and the floor started afresh, and the medians are taken
 * over the rounds of every start: two processes of one build, loaded side by side, differ by up to ±20 % from one
 * start to the next (what V8 happened to compile, and how), so one start's figure is partly luck. Prints each start's
 * rounds and the medians. `npm run bench` reports the same floors one run after another, which on this 2-core machine
 * drift by ±20 % between runs; this is the figure to quote.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  ADMIN,
  answerOf,
  appContext,
  buildServer,
  budgetSummary,
  fixedHeadersOf,
  type Load,
  postAnswer,
  prepareAndWarm,
  ratioText,
  roundsOf,
  STARTS_OPTIONS,
  sideBySide,
  sideBySideOf,
  startsOf,
  type Server,
  startInOrder,
  startServer,
  stopServer,
  verdict,
} from './harness.js';
import { BUDGETED, TARGETS } from './targets.js';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    // --no-build: measure packages/server/dist as it is (after `npm run build -w @tianji/server`).
    'no-build': { type: 'boolean', default: false },
    ...STARTS_OPTIONS,
  },
});
const USAGE =
  'usage: npm run bench:floors -- [--only <text>[,<text>]] [--no-build] [--starts <n>=4] [--duration <s>=5] [--rounds <n>=1, per start] [--connections <n>=50, split between the two]';
const opts = sideBySideOf(values, USAGE);
const starts = startsOf(values, USAGE);
// Default: every target with a budget.
const only = values.only?.split(',').map((s) => s.trim());
const targets = only
  ? TARGETS.filter((t) => (t.method ?? 'GET') === 'GET' && only.some((o) => t.name.includes(o) || t.path.includes(o)))
  : BUDGETED;
if (!targets.length) throw new Error(`no GET target matches --only ${values.only}`);

/** A target's rounds, each start's a list of its own: floor ÷ bare Fastify, app ÷ floor, app ÷ bare Fastify. */
interface Rounds {
  floor: number[][];
  app: number[][];
  bare: number[][];
}

/**
 * The app's fixed response headers, which the floor sends too (as the floor's argument): read from the first start's
 * app (/healthz), the same on every start (they follow the configuration, which no start changes), so that a later
 * start can start the floor first.
 */
let fixedHeaders: string | undefined;

/**
 * One start: bare Fastify, the app and the floor started afresh (in that order, or the reverse on every other start:
 * see startInOrder), the app warmed with every budgeted target (whatever `--only` chose: a running service serves all
 * its routes, see prepareAndWarm), every target measured in turn, the servers stopped. Adds each target's rounds to
 * `byTarget`; a target that does not answer 2xx is left out.
 */
async function oneStart(s: number, byTarget: Map<string, Rounds>): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tianji-floors-'));
  const servers: Server[] = [];
  const start = async (...args: Parameters<typeof startServer>) => {
    const server = await startServer(...args);
    servers.push(server);
    return server;
  };
  try {
    const [bare, app, floor] = await startInOrder(s, [
      () => start('fastify'),
      async () => {
        const server = await start('app', [dir, ADMIN.username, ADMIN.password]);
        const headers = JSON.stringify(await fixedHeadersOf(`http://127.0.0.1:${server.port}`));
        if ((fixedHeaders ??= headers) !== headers)
          throw new Error('bench:floors: the app sent other fixed headers than on the first start');
        return server;
      },
      // The first start is in the listed order: its app has answered by now.
      () => start('floor', [fixedHeaders!]),
    ]);
    const baseUrl = `http://127.0.0.1:${app.port}`;
    const ctx = appContext(baseUrl);
    // Each target's setup runs once a start, for the warm pass and the measured load alike.
    const requests = await prepareAndWarm(ctx, targets, 'bench:floors');
    for (const t of targets) {
      const request = requests.get(t)!;
      const answer = await answerOf(baseUrl, t, request);
      if (!answer) {
        console.error(`bench:floors: ${t.name} did not answer 2xx; skipped`);
        continue;
      }
      await postAnswer(floor, answer);
      const fastifyLoad: Load = { server: bare, url: `http://127.0.0.1:${bare.port}/`, target: {} };
      const floorLoad: Load = { server: floor, url: `http://127.0.0.1:${floor.port}/answer`, target: {} };
      const appLoad: Load = { server: app, url: baseUrl + request.path, target: { ...t, headers: request.headers } };
      let rounds = byTarget.get(t.name);
      if (!rounds) byTarget.set(t.name, (rounds = { floor: [], app: [], bare: [] }));
      rounds.floor.push((await sideBySide(fastifyLoad, floorLoad, opts)).ratios);
      rounds.app.push((await sideBySide(floorLoad, appLoad, opts)).ratios);
      rounds.bare.push((await sideBySide(fastifyLoad, appLoad, opts)).ratios);
    }
  } finally {
    await Promise.all(servers.map((s) => stopServer(s.child)));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  if (!values['no-build']) buildServer();
  console.error(
    `bench:floors: ${targets.length} target(s), ${starts} start(s) of fresh servers, the app warmed with all ${BUDGETED.length} budgeted targets, ${opts.rounds} × ${opts.duration} s side by side per pair and start`,
  );
  const byTarget = new Map<string, Rounds>();
  for (let s = 0; s < starts; s++) {
    await oneStart(s, byTarget);
    console.error(`bench:floors: start ${s + 1} of ${starts} measured`);
  }
  console.log(
    '| target | answer floor ÷ bare Fastify, each start | median | app ÷ answer floor, each start | median | budget (app ÷ answer floor) | app ÷ bare Fastify, each start | median |',
  );
  console.log('|---|---|---:|---|---:|---:|---|---:|');
  const judged: { name: string; ratio: number; budget?: number }[] = [];
  for (const t of targets) {
    const rounds = byTarget.get(t.name);
    if (!rounds) continue;
    const f = roundsOf(rounds.floor);
    const a = roundsOf(rounds.app);
    const b = roundsOf(rounds.bare);
    judged.push({ name: t.name, ratio: a.median, budget: t.budget });
    console.log(
      `| ${t.name} | ${f.text} | ${f.median.toFixed(2)}× | ${a.text} | ${ratioText(a.median, t.budget)}× | ${verdict(a.median, t.budget)} | ${b.text} | ${b.median.toFixed(2)}× |`,
    );
  }
  console.log(`\n${budgetSummary(judged)}`);
}

main().catch((err) => {
  console.error(`bench:floors failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
