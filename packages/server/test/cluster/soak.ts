/**
 * `npm run soak [-- --minutes 10 --window 30 --connections 32 --load 0.8 --warmup 2]`: a benchmark, not a test.
 *
 * The cluster of the cluster test (three instances behind the round-robin proxy, a throwaway PostgreSQL and Redis)
 * under a steady mix of public and admin requests at about 80 % of the capacity measured first, for `minutes`.
 * Prints one row per window: throughput, p50/p99 latency, errors, and each instance's RSS; then each instance's RSS
 * growth after warm-up (from the end of minute `warmup` to the end). Goals: 0 errors, RSS growth under 10 %.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { Tally, signIn } from './harness.js';
import { createCluster, type RunningCluster } from './cluster.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    window: { type: 'string', default: '30' },
    connections: { type: 'string', default: '32' },
    load: { type: 'string', default: '0.8' },
    warmup: { type: 'string', default: '2' },
  },
});
const minutes = Number(values.minutes);
const windowS = Number(values.window);
const connections = Number(values.connections);
const load = Number(values.load);
const warmup = Number(values.warmup);
for (const [name, v] of Object.entries({ minutes, window: windowS, connections, load, warmup })) {
  if (!(v > 0))
    throw new Error(`--${name} must be a positive number (got ${String(values[name as keyof typeof values])})`);
}

const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

async function main(cluster: RunningCluster) {
  await Promise.all(cluster.instances.map((i) => i.start()));
  const admin = await signIn(new Tally('soak'), cluster.proxy);
  const auth = { authorization: `Bearer ${admin.accessToken}` };
  // Public answers from memory and pure functions, and admin reads that go to PostgreSQL on every request.
  const requests: autocannon.Request[] = [
    { method: 'GET', path: '/api/random-color' },
    { method: 'GET', path: '/api/holiday?year=2025' },
    { method: 'GET', path: '/api/hitokoto' },
    { method: 'GET', path: '/api/almanac?date=2026-11-21' },
    { method: 'GET', path: '/api/auth/me', headers: auth },
    { method: 'GET', path: '/api/users?page=1&pageSize=10', headers: auth },
    { method: 'GET', path: '/api/admin/content/jokes?page=1&pageSize=10', headers: auth },
  ];
  const run = (duration: number, overallRate?: number) =>
    autocannon({ url: cluster.proxy, connections, duration, overallRate, requests });

  const probe = await run(15);
  const capacity = probe.requests.average;
  const rate = Math.round(capacity * load);
  console.log(
    `capacity through the proxy: ${capacity.toFixed(0)} req/s (${probe.non2xx} non-2xx while probing); soaking at ${rate} req/s for ${minutes} min\n`,
  );

  const header = `| minute | req/s | p50 ms | p99 ms | errors | ${cluster.instances.map((i) => `RSS ${i.name} MB`).join(' | ')} |`;
  console.log(header);
  console.log(
    `|${header
      .split('|')
      .slice(1, -1)
      .map(() => '--:')
      .join('|')}|`,
  );
  const rss: number[][] = [];
  let errors = 0;
  const windows = Math.max(1, Math.round((minutes * 60) / windowS));
  for (let w = 0; w < windows; w++) {
    const r = await run(windowS, rate);
    const wErrors = r.non2xx + r.errors + r.timeouts;
    errors += wErrors;
    const mem = cluster.instances.map((i) => rssMb(i.child!.pid!));
    rss.push(mem);
    console.log(
      `| ${(((w + 1) * windowS) / 60).toFixed(1)} | ${r.requests.average.toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} | ${wErrors} | ${mem.map((m) => m.toFixed(0)).join(' | ')} |`,
    );
  }
  // The first minutes grow and shrink as code warms up and the heap finds its size; growth counts from after them.
  const base = rss[Math.min(rss.length - 1, Math.max(0, Math.round((warmup * 60) / windowS) - 1))];
  const last = rss[rss.length - 1];
  const growth = cluster.instances.map((i, k) => `${i.name} ${(((last[k] - base[k]) / base[k]) * 100).toFixed(1)} %`);
  console.log(`\nerrors: ${errors}; RSS growth after minute ${warmup}: ${growth.join(', ')}`);
  return errors === 0;
}

const cluster = await createCluster({ RATE_LIMIT_MAX: '1000000000', LOG_LEVEL: 'warn', ACCESS_TOKEN_TTL: '2h' });
process.on('SIGINT', () => void cluster.stop(true).finally(() => process.exit(130)));
let ok = false;
try {
  ok = await main(cluster);
} finally {
  await cluster.stop(true);
}
process.exit(ok ? 0 : 1);
