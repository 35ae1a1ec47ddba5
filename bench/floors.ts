/**
 * `npm run bench:floors [-- --only almanac,hitokoto] [--duration 5] [--rounds 3]` (default: every budgeted target)
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
 * Prints each round's ratio and the medians. `npm run bench` reports the same floors one run after another, which on
 * this 2-core machine drift by ±20 % between runs; this is the figure to quote.
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
  prepare,
  ratioText,
  SIDE_BY_SIDE_OPTIONS,
  sideBySide,
  sideBySideOf,
  type Server,
  startServer,
  stopServer,
  verdict,
} from './harness.js';
import { TARGETS } from './targets.js';

const { values } = parseArgs({
  // --no-build: measure packages/server/dist as it is (after `npm run build -w @tianji/server`).
  options: { only: { type: 'string' }, 'no-build': { type: 'boolean', default: false }, ...SIDE_BY_SIDE_OPTIONS },
});
const opts = sideBySideOf(
  values,
  'usage: npm run bench:floors -- [--only <text>[,<text>]] [--no-build] [--duration <s>=5] [--rounds <n>=3] [--connections <n>=50, split between the two]',
);
// Default: every target with a budget.
const only = values.only?.split(',').map((s) => s.trim());
const targets = TARGETS.filter(
  (t) =>
    (t.method ?? 'GET') === 'GET' &&
    (only ? only.some((o) => t.name.includes(o) || t.path.includes(o)) : t.budget !== undefined),
);
if (!targets.length) throw new Error(`no GET target matches --only ${values.only}`);

async function main() {
  if (!values['no-build']) buildServer();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tianji-floors-'));
  const servers: Server[] = [];
  try {
    const bare = await startServer('fastify');
    servers.push(bare);
    const app = await startServer('app', [dir, ADMIN.username, ADMIN.password]);
    servers.push(app);
    const baseUrl = `http://127.0.0.1:${app.port}`;
    const floor = await startServer('floor', [JSON.stringify(await fixedHeadersOf(baseUrl))]);
    servers.push(floor);
    const ctx = appContext(baseUrl);
    console.error(
      `bench:floors: ${targets.length} target(s), ${opts.rounds} × ${opts.duration} s side by side per pair`,
    );
    console.log(
      '| target | answer floor ÷ bare Fastify, each round | median | app ÷ answer floor, each round | median | budget (app ÷ answer floor) | app ÷ bare Fastify, each round | median |',
    );
    console.log('|---|---|---:|---|---:|---:|---|---:|');
    const judged: { name: string; ratio: number; budget?: number }[] = [];
    for (const t of targets) {
      const request = await prepare(t, ctx);
      const answer = await answerOf(baseUrl, t, request);
      if (!answer) {
        console.error(`bench:floors: ${t.name} did not answer 2xx; skipped`);
        continue;
      }
      await postAnswer(floor, answer);
      const fastifyLoad: Load = { server: bare, url: `http://127.0.0.1:${bare.port}/`, target: {} };
      const floorLoad: Load = { server: floor, url: `http://127.0.0.1:${floor.port}/answer`, target: {} };
      const appLoad: Load = { server: app, url: baseUrl + request.path, target: { ...t, headers: request.headers } };
      const f = await sideBySide(fastifyLoad, floorLoad, opts);
      const a = await sideBySide(floorLoad, appLoad, opts);
      const b = await sideBySide(fastifyLoad, appLoad, opts);
      const each = (xs: number[]) => xs.map((r) => r.toFixed(2)).join(' ');
      judged.push({ name: t.name, ratio: a.median, budget: t.budget });
      console.log(
        `| ${t.name} | ${each(f.ratios)} | ${f.median.toFixed(2)}× | ${each(a.ratios)} | ${ratioText(a.median, t.budget)}× | ${verdict(a.median, t.budget)} | ${each(b.ratios)} | ${b.median.toFixed(2)}× |`,
      );
    }
    console.log(`\n${budgetSummary(judged)}`);
  } finally {
    await Promise.all(servers.map((s) => stopServer(s.child)));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`bench:floors failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
