/**
 * Child-process entry of the benchmark: `baseline` serves a bare node:http hello-world, `app` the real service
 * (buildApp on a SQLite file in the folder given as the second argument). Each child tells its parent the port
 * over IPC. Running servers in their own process keeps autocannon (in the parent) off their event loop.
 */
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../packages/server/src/app.js';
import { loadConfig } from '../packages/server/src/config.js';

export type ServerKind = 'baseline' | 'app';

export interface ReadyMessage {
  ready: true;
  port: number;
}

/** Asked by the parent around each measured run: CPU time this server process has used so far, in µs. */
export interface CpuMessage {
  cpu: number;
}

async function startBaseline(): Promise<number> {
  const body = JSON.stringify({ hello: 'world' });
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function startApp(dir: string, adminUsername: string, adminPassword: string): Promise<number> {
  // An explicit environment: the bench must not pick up the developer's DATABASE_URL, REDIS_URL or limits.
  const config = loadConfig({
    DATA_DIR: dir,
    DATABASE_URL: `sqlite:${path.join(dir, 'bench.db')}`,
    ADMIN_USERNAME: adminUsername,
    ADMIN_PASSWORD: adminPassword,
    RATE_LIMIT_MAX: '0',
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
  if (kind !== 'baseline' && kind !== 'app') throw new Error(`unknown server kind "${kind}"`);
  if (kind === 'app' && !(dir && username && password)) throw new Error('usage: server.ts app <data folder> <admin username> <admin password>');
  const port = kind === 'baseline' ? await startBaseline() : await startApp(dir, username, password);
  process.send({ ready: true, port } satisfies ReadyMessage);
  process.on('message', (m) => {
    if (m === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send!({ cpu: user + system } satisfies CpuMessage);
    }
  });
  // The parent's exit closes the channel: follow it rather than linger.
  process.on('disconnect', () => process.exit(0));
}

main().catch((err) => {
  console.error('bench server failed:', err);
  process.exit(1);
});
