/**
 * Child-process entry of the benchmark: `baseline` serves a bare node:http hello-world, `app` the real service
 * (buildApp on a SQLite file in the folder given as the second argument). Each child tells its parent the port
 * over IPC. Running servers in their own process keeps autocannon (in the parent) off their event loop.
 */
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

export type ServerKind = 'baseline' | 'fastify' | 'app';

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

/** Bare Fastify 5 with defaults and one route: the framework's own floor, which the app's hooks add to. */
async function startFastify(): Promise<number> {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ hello: 'world' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

async function startApp(dir: string, adminUsername: string, adminPassword: string): Promise<number> {
  // Imported here, so that the baselines' processes hold none of the app's modules or data (their RSS is comparable).
  const { buildApp } = await import('../packages/server/src/app.js');
  const { loadConfig } = await import('../packages/server/src/config.js');
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
  });
  const app = await buildApp({ config, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

async function main() {
  const [kind, dir, username, password] = process.argv.slice(2) as [ServerKind, ...string[]];
  if (!process.send) throw new Error('bench/server.ts is started by bench/run.ts (needs an IPC channel)');
  if (kind !== 'baseline' && kind !== 'fastify' && kind !== 'app') throw new Error(`unknown server kind "${kind}"`);
  if (kind === 'app' && !(dir && username && password))
    throw new Error('usage: server.ts app <data folder> <admin username> <admin password>');
  const port =
    kind === 'baseline'
      ? await startBaseline()
      : kind === 'fastify'
        ? await startFastify()
        : await startApp(dir, username, password);
  process.send({ ready: true, port } satisfies ReadyMessage);
  process.on('message', (m) => {
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
