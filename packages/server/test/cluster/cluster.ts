import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ADMIN, RATE_LIMIT_MAX, type Cluster } from './harness.js';
import { Instance, SERVER_JS } from './instance.js';
import { RoundRobinProxy } from './proxy.js';
import { ThrowawayPostgres, ThrowawayRedis, freePort } from './services.js';

export interface RunningCluster extends Cluster {
  /** Kills whatever is still running and removes the throwaway database (logs stay in `dir` unless `removeDir`). */
  stop(removeDir: boolean): Promise<void>;
}

/**
 * A throwaway PostgreSQL and Redis, three instances A, B, C (not started: the caller decides when, e.g. all at
 * once on the empty database) and a round-robin proxy in front. `env` overrides the instances' settings.
 */
export async function createCluster(env: Record<string, string> = {}): Promise<RunningCluster> {
  if (!fs.existsSync(SERVER_JS))
    throw new Error(`${SERVER_JS} is missing: build first (npm run build -w packages/server)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tianji-cluster-'));
  const pg = new ThrowawayPostgres(await freePort());
  const redis = new ThrowawayRedis(await freePort());
  const extra: Instance[] = [];
  let instances: Instance[] = [];
  let proxy: RoundRobinProxy | undefined;
  const stop = async (removeDir: boolean) => {
    await Promise.all([...instances, ...extra].filter((i) => i.alive).map((i) => i.kill()));
    await proxy?.close();
    await redis.stop();
    await pg.destroy();
    if (removeDir) fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await pg.init();
    await redis.start();
    const settings = {
      DATABASE_URL: pg.url,
      REDIS_URL: redis.url,
      JWT_SECRET: randomBytes(32).toString('base64url'),
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      TRUST_PROXY: 'true',
      RATE_LIMIT_MAX: String(RATE_LIMIT_MAX),
      RATE_LIMIT_WINDOW: '60s',
      LOGIN_MAX_FAILURES_PER_IP: '1000',
      USAGE_FLUSH_INTERVAL: '2s',
      PASSWORD_WORKERS: '1',
      ...env,
    };
    instances = ['A', 'B', 'C'].map((name) => new Instance({ name, dir, env: settings }));
    proxy = new RoundRobinProxy(() => instances.filter((i) => i.port).map((i) => ({ name: i.name, port: i.port })));
    await proxy.listen();
    return { proxy: proxy.url, instances, pg, redis, env: settings, dir, stop, extra };
  } catch (err) {
    await stop(true);
    throw err;
  }
}
