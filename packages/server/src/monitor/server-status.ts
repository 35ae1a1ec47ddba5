import fs from 'node:fs';
import os from 'node:os';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';

const Ms = (description: string) => Type.Number({ description: `${description}, ms` });
const Bytes = (description: string) => Type.Integer({ description: `${description}, bytes` });
const Count = (description: string) => Type.Integer({ minimum: 0, description });

/** The answer of GET /api/admin/server-status: how this instance and what it depends on are doing now. */
export const ServerStatusSchema = Type.Object({
  checkedAt: Type.String({ format: 'date-time', description: 'When this answer was made' }),
  process: Type.Object({
    startedAt: Type.String({ format: 'date-time' }),
    uptimeSeconds: Type.Integer({ minimum: 0 }),
    version: Type.String({ description: 'The server’s version (packages/server/package.json)' }),
    node: Type.String({ description: 'Node.js version, e.g. v20.19.0' }),
    pid: Type.Integer(),
    hostname: Type.String(),
    platform: Type.String({ description: 'Operating system and architecture, e.g. linux x64' }),
  }),
  memory: Type.Object({
    rss: Bytes('Resident set size of the process'),
    heapUsed: Bytes('V8 heap in use'),
    heapTotal: Bytes('V8 heap reserved'),
    systemTotal: Bytes('The machine’s memory'),
    systemFree: Bytes('The machine’s free memory'),
  }),
  cpu: Type.Object({
    percent: Type.Number({
      description: 'CPU time of the process over the last minute (at least the last 5 s), % of one core',
    }),
    cores: Count('Cores available to the process'),
    load: Type.Array(Type.Number(), {
      minItems: 3,
      maxItems: 3,
      description: 'The machine’s 1, 5 and 15 minute load averages',
    }),
  }),
  eventLoop: Type.Object({
    p50: Ms('Median event-loop delay over the last minute'),
    p99: Ms('99th percentile event-loop delay over the last minute'),
    max: Ms('Longest event-loop delay over the last minute'),
  }),
  database: Type.Object({
    kind: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')]),
    ok: Type.Boolean({ description: 'Whether `select 1` succeeded' }),
    latencyMs: Type.Union([Ms('How long `select 1` took'), Type.Null()]),
    migration: Type.Union([Type.String(), Type.Null()], { description: 'The latest migration the database has run' }),
    pool: Type.Union([
      Type.Object({
        max: Count('Connections the pool may open'),
        size: Count('Connections open'),
        idle: Count('Open connections not in use'),
        waiting: Count('Queries waiting for a connection'),
      }),
      Type.Null(),
    ]),
  }),
  redis: Type.Object({
    configured: Type.Boolean({ description: 'Whether REDIS_URL is set' }),
    connected: Type.Boolean(),
    latencyMs: Type.Union([Ms('How long PING took'), Type.Null()]),
  }),
  passwordPool: Type.Object({
    threads: Count('Threads the password-strength lanes may run'),
    running: Count('Threads loaded now'),
    busy: Count('Checks being scored'),
    queued: Count('Checks waiting for a thread'),
  }),
  requests: Type.Object({
    perMinute: Count('Answers of this instance over the last 60 s'),
    callerErrorsPerMinute: Count(
      'Failed answers the caller caused (status < 500, and the public API’s 500 for a bad parameter)',
    ),
    serverFaultsPerMinute: Count('Failed answers that are the server’s fault'),
  }),
});
export type ServerStatus = Static<typeof ServerStatusSchema>;

/** The server's version, read once: packages/server/package.json, two levels above src/monitor and dist/monitor. */
const VERSION = (
  JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** Milliseconds `work` took, or null when it failed or took longer than `limitMs`. */
async function timed(work: () => Promise<unknown>, limitMs = 2000): Promise<number | null> {
  const start = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      work(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), limitMs);
      }),
    ]);
    return Math.round((performance.now() - start) * 100) / 100;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/** The latest migration the database has run (Kysely's bookkeeping table, in the current schema on PostgreSQL). */
async function latestMigration(app: FastifyInstance): Promise<string | null> {
  try {
    const { rows } = await sql<{
      name: string;
    }>`select name from kysely_migration order by name desc limit 1`.execute(app.db.kysely);
    return rows[0]?.name ?? null;
  } catch {
    return null;
  }
}

/** Reads everything 服务监控 shows; the database and Redis are asked in parallel, each within 2 s. */
export async function serverStatus(app: FastifyInstance): Promise<ServerStatus> {
  const { redis, db } = app;
  const [dbLatency, migration, redisLatency] = await Promise.all([
    timed(() => db.ping()),
    latestMigration(app),
    redis?.status === 'ready' ? timed(() => redis.ping()) : null,
  ]);
  const mem = process.memoryUsage();
  const sample = app.serverMonitor.process.read();
  const recent = app.serverMonitor.requests.lastMinute();
  return {
    checkedAt: new Date().toISOString(),
    process: {
      // performance.timeOrigin: when the process started (ms since the epoch), the same on every reading.
      startedAt: new Date(performance.timeOrigin).toISOString(),
      uptimeSeconds: Math.floor(process.uptime()),
      version: VERSION,
      node: process.version,
      pid: process.pid,
      hostname: os.hostname(),
      platform: `${process.platform} ${process.arch}`,
    },
    memory: {
      rss: mem.rss,
      heapUsed: mem.heapUsed,
      heapTotal: mem.heapTotal,
      systemTotal: os.totalmem(),
      systemFree: os.freemem(),
    },
    cpu: { percent: sample.cpuPercent, cores: sample.cores, load: sample.load },
    eventLoop: sample.eventLoop,
    database: {
      kind: db.dialect,
      ok: dbLatency !== null,
      latencyMs: dbLatency,
      migration,
      pool: db.poolStats?.() ?? null,
    },
    redis: { configured: redis !== undefined, connected: redisLatency !== null, latencyMs: redisLatency },
    passwordPool: app.passwordPool.stats(),
    requests: {
      perMinute: recent.requests,
      callerErrorsPerMinute: recent.callerErrors,
      serverFaultsPerMinute: recent.serverFaults,
    },
  };
}
