import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildOptions } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { openDatabase, type Db, type Dialect } from '../src/db/index.js';

export const ADMIN = { username: 'admin', password: 'admin-password-123' };

const PG_URL = process.env.TEST_DATABASE_URL;
export const REDIS_URL = process.env.TEST_REDIS_URL;

export const dialects: Dialect[] = PG_URL ? ['sqlite', 'postgres'] : ['sqlite'];
if (!PG_URL && !process.env.__TIANJI_PG_SKIP_SAID) {
  process.env.__TIANJI_PG_SKIP_SAID = '1';
  console.warn('[tianji tests] TEST_DATABASE_URL is not set: database suites run on SQLite only (PostgreSQL skipped).');
}

/**
 * Runs the same suite on every available dialect: in-memory SQLite always, PostgreSQL when TEST_DATABASE_URL is set.
 */
export function describeEachDb(name: string, fn: (dialect: Dialect) => void) {
  for (const d of dialects) describe(`${name} [${d}]`, () => fn(d));
}

/** A fresh, empty database: in-memory SQLite, or a new schema on the PostgreSQL test server (dropped on close). */
export async function freshDb(dialect: Dialect): Promise<Db> {
  if (dialect === 'sqlite') return openDatabase('sqlite::memory:');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const db = openDatabase(PG_URL!, { searchPath: schema, poolSize: 25 });
  const close = db.close;
  db.close = async () => {
    await close();
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    await c.query(`drop schema ${schema} cascade`);
    await c.end();
  };
  return db;
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    DATA_DIR: path.join(os.tmpdir(), 'tianji-test'),
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    RATE_LIMIT_MAX: '0',
    LOG_LEVEL: 'silent',
    JWT_SECRET: randomBytes(32).toString('hex'),
    ...overrides,
  });
}

export interface TestInstance {
  app: FastifyInstance;
  db: Db;
  close(): Promise<void>;
}

/**
 * What every app's start leaves in a fresh SQLite database (migrations, the first super administrator, menus, roles,
 * the content libraries), made once per worker and copied for each app: building it is most of an app's start
 * (~0.3 CPU-s, the administrator's password hash and the content seed the largest parts). The app still runs its
 * migrations and seeds on the copy, which find everything in place, as on any restart.
 */
let seededSqlite: Promise<Buffer> | undefined;
function seededSqliteImage(): Promise<Buffer> {
  seededSqlite ??= (async () => {
    const db = openDatabase('sqlite::memory:');
    const app = await buildApp({ config: testConfig(), db, logger: false });
    await app.ready();
    const image = db.snapshot!();
    await app.close();
    await db.close();
    return image;
  })();
  return seededSqlite;
}

/** Settings that change what the first start seeds: an app given any of them starts from an empty database. */
const SEED_SETTINGS = /^ADMIN_/;

/**
 * What a test may add to an app's build: a route hook, a clock, a logger (default none), and `prepare`, which runs
 * after buildApp and before the app is ready (to add a route of the test's own).
 */
export type TestBuildOptions = Pick<BuildOptions, 'onRoute' | 'now' | 'logger'> & {
  prepare?: (app: FastifyInstance) => void;
};

/** Builds a fresh app on a fresh database (better-auth's getTestInstance, in spirit). */
export async function getTestInstance(
  dialect: Dialect = 'sqlite',
  env: Record<string, string> = {},
  build: TestBuildOptions = {},
): Promise<TestInstance> {
  const db =
    dialect === 'sqlite' && !Object.keys(env).some((k) => SEED_SETTINGS.test(k))
      ? openDatabase('sqlite::memory:', { image: await seededSqliteImage() })
      : await freshDb(dialect);
  const { prepare, ...options } = build;
  const app = await buildApp({ config: testConfig(env), db, logger: false, ...options });
  prepare?.(app);
  await app.ready();
  return {
    app,
    db,
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}

/**
 * A fresh app for the enclosing describe block (or file): built before its first test, closed after its last.
 * Read `t.app` and `t.db` inside tests and hooks; hooks the block registers after this call run once the app exists.
 * @example const t = useTestApp(dialect); it('…', async () => expect((await t.app.inject('/healthz')).statusCode).toBe(200));
 */
export function useTestApp(
  dialect: Dialect = 'sqlite',
  env: Record<string, string> = {},
  build: TestBuildOptions = {},
): TestInstance {
  let current: TestInstance | undefined;
  beforeAll(async () => {
    current = await getTestInstance(dialect, env, build);
  });
  afterAll(() => current?.close());
  const get = () => {
    if (!current) throw new Error('useTestApp: the app is built in beforeAll; read it inside a test or a hook');
    return current;
  };
  return {
    get app() {
      return get().app;
    },
    get db() {
      return get().db;
    },
    close: () => get().close(),
  };
}

export const login = (app: FastifyInstance, username = ADMIN.username, password = ADMIN.password) =>
  signInWith(app, username, password, {});

/** login from `address`, as a proxy on this machine names it in X-Forwarded-For (needs TRUST_PROXY=127.0.0.1). */
export const loginFrom = (
  app: FastifyInstance,
  address: string,
  username = ADMIN.username,
  password = ADMIN.password,
) => signInWith(app, username, password, { 'x-forwarded-for': address });

async function signInWith(app: FastifyInstance, username: string, password: string, headers: Record<string, string>) {
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password }, headers });
  if (res.statusCode !== 200) throw new Error(`login as ${username} failed: ${res.statusCode} ${res.body}`);
  return res.json().data as { accessToken: string; refreshToken: string; user: { id: string; permissions: number } };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A pino destination that keeps each JSON log line, parsed, in `lines` (pass `stream` as the logger's stream). */
export function capturedLog(): {
  stream: Writable;
  lines: Array<{ level: number; msg?: string; err?: { message?: string } }>;
} {
  const lines: Array<{ level: number; msg?: string; err?: { message?: string } }> = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { stream, lines };
}
