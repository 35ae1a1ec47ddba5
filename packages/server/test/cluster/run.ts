/**
 * `npm run test:cluster`: three instances on a throwaway PostgreSQL and Redis behind a round-robin proxy, the
 * scenarios of scenarios.ts and shutdown.ts, a summary table, and exit code 1 on any broken promise or lost write.
 * Runs the compiled server (the npm script builds it first). Not part of `npm test`: it takes minutes, not seconds.
 * `npm run test:cluster -- --only SIGKILL` runs the start-up and the scenarios whose name contains the text.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Tally, type Cluster, type Outcome } from './harness.js';
import { SERVER_JS } from './instance.js';
import { createCluster, type RunningCluster } from './cluster.js';
import { SCENARIOS } from './scenarios.js';
import { shutdownScenarios } from './shutdown.js';
import { freePort } from './services.js';

const only = parseArgs({ options: { only: { type: 'string' } } }).values.only;
const chosen = (name: string) => !only || name.includes(only);
const outcomes: Outcome[] = [];
let cluster: RunningCluster | undefined;
process.on('SIGINT', () => void (cluster?.stop(false) ?? Promise.resolve()).finally(() => process.exit(130)));

/** All three start at the same moment on the empty database: the start-up lock must make them seed once. */
async function startTogether(c: Cluster): Promise<Outcome> {
  const t = new Tally('start ×3 at once on empty PostgreSQL: migrate and seed once');
  const t0 = Date.now();
  try {
    await Promise.all(c.instances.map((i) => i.start()));
    t.note(`all three answering after ${Date.now() - t0} ms`);
  } catch (err) {
    t.expect(false, (err as Error).message);
    return t.outcome();
  }
  const one = async (q: string) => Number((await c.pg.query<{ n: string }>(q))[0].n);
  t.expect((await one(`select count(*) as n from users`)) === 1, 'more than one first administrator');
  t.expect(
    (await one(`select count(*) as n from (select code from menus group by code having count(*) > 1) d`)) === 0,
    'duplicate menus',
  );
  t.expect(
    (await one(
      `select count(*) as n from (select library, data from content_items group by library, data having count(*) > 1) d`,
    )) === 0,
    'duplicate content items',
  );
  t.expect((await one(`select count(*) as n from content_meta where seeded_at is null`)) === 0, 'a library not seeded');
  return t.outcome();
}

/** A PostgreSQL deployment without JWT_SECRET must refuse to start, saying why. */
async function refusesWithoutSecret(c: Cluster): Promise<Outcome> {
  const t = new Tally('PostgreSQL without JWT_SECRET: refused with a reason');
  const { JWT_SECRET: _omitted, ...env } = c.env;
  const child = spawn(process.execPath, [SERVER_JS], {
    env: {
      PATH: process.env.PATH ?? '',
      ...env,
      PORT: String(await freePort()),
      DATA_DIR: path.join(c.dir, 'nosecret'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d));
  const code = await new Promise<number | null>((r) => child.once('exit', (c2) => r(c2)));
  t.note(`exit ${code}: ${err.trim().slice(0, 60)}…`);
  t.expect(
    code === 78 && /JWT_SECRET/.test(err) && /PostgreSQL/.test(err),
    `expected exit 78 naming JWT_SECRET, got ${code}: ${err.slice(0, 200)}`,
  );
  return t.outcome();
}

function printTable(rows: Outcome[]) {
  const head = ['scenario', 'requests', 'failures', 'lost writes', 'result'];
  const body = rows.map((r) => [
    r.name,
    String(r.requests),
    String(r.failures),
    String(r.lostWrites),
    r.problems.length || r.lostWrites ? 'FAIL' : 'ok',
  ]);
  const width = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(width[i]) : c.padStart(width[i]))).join(' | ')} |`;
  console.log(
    [
      '',
      line(head),
      `|${width.map((w, i) => (i === 0 ? '-' : '') + '-'.repeat(w) + (i === 0 ? '-' : ':')).join('|')}|`,
      ...body.map(line),
    ].join('\n'),
  );
  for (const r of rows) {
    for (const n of r.notes) console.log(`  ${r.name}: ${n}`);
    for (const p of r.problems) console.log(`  ✗ ${r.name}: ${p}`);
  }
}

async function main() {
  const t0 = Date.now();
  const c = (cluster = await createCluster());
  outcomes.push(await startTogether(c));
  if (!outcomes[0].problems.length) {
    for (const s of SCENARIOS.filter((x) => chosen(x.name))) {
      const t = new Tally(s.name);
      try {
        await s.run(c, t);
      } catch (err) {
        t.expect(false, `stopped: ${(err as Error).message}`);
      }
      outcomes.push(t.outcome());
    }
  }
  if (chosen('JWT_SECRET')) outcomes.push(await refusesWithoutSecret(c));
  if (chosen('SIGTERM')) outcomes.push(...(await shutdownScenarios(c)));
  printTable(outcomes);
  console.log(`\ncluster test: ${((Date.now() - t0) / 1000).toFixed(0)} s; logs in ${c.dir}`);
}

let failed = true;
try {
  await main();
  failed = outcomes.some((o) => o.problems.length > 0 || o.lostWrites > 0);
} catch (err) {
  console.error('cluster test could not run:', err);
} finally {
  // Logs stay for a failed run (the table says where).
  await cluster?.stop(!failed);
}
process.exit(failed ? 1 : 0);
