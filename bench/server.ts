/**
 * Child-process entry of the benchmark: `baseline` serves a bare node:http hello-world, `fastify` a bare Fastify one,
 * `floor` bare Fastify with the required features' libraries (startFloor), `app` the real service as compiled for
 * `npm start` (buildApp from packages/server/dist, on a SQLite file in the folder given as the second argument). Each
 * child tells its parent the port over IPC. Running servers in their own process keeps autocannon (in the parent) off
 * their event loop.
 */
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

export type ServerKind = 'baseline' | 'fastify' | 'floor' | 'app';

export interface ReadyMessage {
  ready: true;
  port: number;
}

/** Asked by the parent around each measured run: CPU time this server process has used so far, in µs. */
export interface CpuMessage {
  cpu: number;
  /** Peak resident set size of the process so far, in MB. */
  maxRssMb: number;
}

async function startBaseline(): Promise<number> {
  const body = JSON.stringify({ hello: 'world' });
  const server = http.createServer((_req, res) => {
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/**
 * The compiled server next to this file (built by harness.ts buildServer): what `npm start` runs. bench:callgrind-ab
 * starts a second app from a saved copy of an earlier build (BENCH_SERVER_DIST, a folder beside dist/).
 */
const DIST = process.env.BENCH_SERVER_DIST ?? '../packages/server/dist';

/** Bare Fastify 5 with defaults and one route: the framework's own floor, which the app's hooks add to. */
async function startFastify(): Promise<number> {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ hello: 'world' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

/**
 * The features floor: bare Fastify plus what issue 13 requires every public answer to keep, each as the app keeps it
 * and with none of the app's request handling: the app's own fixed response headers (the API answers' security set and
 * CORS, passed in as the app sent them on /healthz) set in one onRequest hook, @fastify/rate-limit (in memory, a limit no run reaches) and
 * the app's request-duration histogram observed per response. No query, validation, ETag, envelope or usage count:
 * what a route of the app costs above this is the app's own work.
 */
async function startFloor(headers: Record<string, string>): Promise<number> {
  const { default: Fastify } = await import('fastify');
  const { default: rateLimit } = await import('@fastify/rate-limit');
  const { Registry } = await import('prom-client');
  // The app's request-duration metric (counted in its own arrays, formatted by prom-client's registry).
  const { DurationHistogram, REQUEST_DURATION_BUCKETS } = (await import(
    `${DIST}/monitor/duration-metric.js`
  )) as typeof import('../packages/server/src/monitor/duration-metric.js');
  const app = Fastify({ logger: false });
  const duration = new DurationHistogram({
    name: 'floor_http_request_duration_seconds',
    help: 'request duration',
    // The app's buckets: an observation's cost grows with their number.
    buckets: REQUEST_DURATION_BUCKETS,
  });
  new Registry().registerMetric(duration.metric());
  const child = duration.series({ method: 'GET', route: '/', status: '200' });
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
  app.addHook('onResponse', (_req, reply, done) => {
    child.observe(reply.elapsedTime / 1000);
    done();
  });
  await app.register(rateLimit, { max: 1_000_000_000, timeWindow: 60_000 });
  app.get('/', async () => ({ hello: 'world' }));
  // The answer floor: the same features sending a target's own answer (its bytes, type, ETag and Cache-Control), as
  // the parent last posted it (AnswerMessage), so that body size and caching headers are in the floor too.
  let answer: Answer = { type: 'application/json', body: Buffer.from('{}'), headers: {} };
  app.get('/answer', (_req, reply) => reply.headers(answer.headers).type(answer.type).send(answer.body));
  process.on('message', (m: AnswerMessage) => {
    if (!m?.answer) return;
    answer = { type: m.answer.type, body: Buffer.from(m.answer.body, 'base64'), headers: m.answer.headers };
    process.send!({ answerSet: true });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

interface Answer {
  type: string;
  body: Buffer;
  /** The caching headers the app sent with it (ETag, Cache-Control), which belong to the features. */
  headers: Record<string, string>;
}

/** Sent by the parent to the floor before a target's answer-floor run; acknowledged with `{ answerSet: true }`. */
export interface AnswerMessage {
  answer: { type: string; body: string; headers: Record<string, string> };
}

async function startApp(
  dir: string,
  adminUsername: string,
  adminPassword: string,
  /**
   * bench:instructions, under valgrind (30× slower): settings added to the bench's own (the seed's password-strength
   * check off) and Fastify's plugin start limit.
   */
  { env = {}, pluginTimeout }: { env?: Record<string, string>; pluginTimeout?: number } = {},
): Promise<number> {
  // Imported here, so that the baselines' processes hold none of the app's modules or data (their RSS is comparable).
  // The compiled modules have no declarations of their own: they are typed as the sources they were built from.
  const { buildApp } = (await import(`${DIST}/app.js`)) as typeof import('../packages/server/src/app.js');
  const { loadConfig } = (await import(`${DIST}/config.js`)) as typeof import('../packages/server/src/config.js');
  // An explicit environment: the bench must not pick up the developer's DATABASE_URL, REDIS_URL or limits.
  const config = loadConfig({
    DATA_DIR: dir,
    DATABASE_URL: `sqlite:${path.join(dir, 'bench.db')}`,
    ADMIN_USERNAME: adminUsername,
    ADMIN_PASSWORD: adminPassword,
    // The rate limit runs (every feature is measured) with a limit no bench run reaches.
    RATE_LIMIT_MAX: '1000000000',
    LOG_LEVEL: 'silent',
    ACCESS_TOKEN_TTL: '1h',
    ...env,
  });
  const app = await buildApp({ config, logger: false, pluginTimeout });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

async function main() {
  const [kind, ...args] = process.argv.slice(2) as [ServerKind, ...string[]];
  if (!process.send) throw new Error('bench/server.ts is started by bench/run.ts (needs an IPC channel)');
  if (!['baseline', 'fastify', 'floor', 'app'].includes(kind)) throw new Error(`unknown server kind "${kind}"`);
  if (kind === 'app' && args.length < 3)
    throw new Error(
      'usage: server.ts app <data folder> <admin username> <admin password> [<{env, pluginTimeout} as JSON>]',
    );
  if (kind === 'floor' && args.length < 1) throw new Error('usage: server.ts floor <response headers as JSON>');
  const port =
    kind === 'baseline'
      ? await startBaseline()
      : kind === 'fastify'
        ? await startFastify()
        : kind === 'floor'
          ? await startFloor(JSON.parse(args[0]) as Record<string, string>)
          : await startApp(args[0], args[1], args[2], args[3] ? JSON.parse(args[3]) : undefined);
  process.send({ ready: true, port } satisfies ReadyMessage);
  process.on('message', async (m) => {
    if (m === 'stop-idle-threads' && kind === 'app') {
      // The module buildApp loaded (same file, same instance): its pools stop as after ten idle minutes.
      const { stopPasswordThreads } = (await import(
        `${DIST}/engines/password/password-pool.js`
      )) as typeof import('../packages/server/src/engines/password/password-pool.js');
      await stopPasswordThreads();
      process.send!({ idleThreadsStopped: true });
    }
    // bench:callgrind-ab, before a counted span: a full collection now (the process runs with --expose-gc), so that
    // one started by earlier requests does not land in the span.
    if (m === 'gc') {
      (globalThis as { gc?: () => void }).gc?.();
      process.send!({ gcDone: true });
    }
    if (m === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send!({ cpu: user + system, maxRssMb: process.resourceUsage().maxRSS / 1024 } satisfies CpuMessage);
    }
  });
  // The parent's exit closes the channel: follow it rather than linger.
  process.on('disconnect', () => process.exit(0));
  // An orderly exit, so that a --cpu-prof profile is written.
  process.on('SIGTERM', () => process.exit(0));
}

main().catch((err) => {
  console.error('bench server failed:', err);
  process.exit(1);
});
