import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { PASSWORD_BUDGET_MS } from './engines/password/password-constants.js';

/**
 * Every setting the service reads, in one schema. `process.env` is read here and nowhere else;
 * a bad value stops the boot with a message that names the variable.
 */
const EnvSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000, description: 'HTTP port' }),
  HOST: Type.String({
    default: '127.0.0.1',
    description:
      'Interface to listen on: this machine only by default; 0.0.0.0 (every interface) in the container image, compose and Kubernetes',
  }),
  DATA_DIR: Type.String({ default: './data', description: 'Folder for the SQLite file and the generated JWT secret' }),
  DATABASE_URL: Type.Optional(
    Type.String({
      description:
        'postgres://… selects PostgreSQL; sqlite:<path> or a file path selects SQLite (default <DATA_DIR>/tianji.db)',
    }),
  ),
  REDIS_URL: Type.Optional(
    Type.String({
      description:
        'redis://… lets several instances share the public rate limit, content-change notifications and session-ended notices',
    }),
  ),
  JWT_SECRET: Type.Optional(
    Type.String({
      minLength: 32,
      description:
        'HS256 secret, at least 32 characters; generated and kept in DATA_DIR when unset; required with PostgreSQL, the same on every instance',
    }),
  ),
  ADMIN_USERNAME: Type.String({
    default: 'admin',
    minLength: 3,
    maxLength: 32,
    description: 'Username of the first super administrator, created on an empty database',
  }),
  ADMIN_PASSWORD: Type.Optional(
    Type.String({
      minLength: 8,
      maxLength: 128,
      description:
        'Password of that first super administrator; when unset one is generated, printed once as a banner on stderr, and must be changed at first sign-in',
    }),
  ),
  ACCESS_TOKEN_TTL: Type.String({
    default: '15m',
    description: 'Access token lifetime: seconds or a number with s/m/h/d',
  }),
  REFRESH_TOKEN_TTL: Type.String({
    default: '7d',
    description: 'Refresh token lifetime: seconds or a number with s/m/h/d',
  }),
  TRUST_PROXY: Type.String({
    default: 'false',
    description:
      'false, a hop count, or comma-separated addresses/CIDRs of trusted proxies; true trusts a client-written address (warned at start-up)',
  }),
  CORS_ORIGINS: Type.String({
    default: '',
    description: 'Comma-separated origins allowed to call the admin API from a browser',
  }),
  MENU_EMBED_ORIGINS: Type.String({
    default: '',
    description:
      'Comma-separated origins (https://grafana.example.com) whose pages operators may embed as a menu (kind "embed")',
  }),
  RATE_LIMIT_MAX: Type.Integer({
    minimum: 0,
    default: 300,
    description: 'Public API requests per client IP per window; 0 turns the limit off',
  }),
  RATE_LIMIT_WINDOW: Type.String({ default: '1m', description: 'Window of the public API rate limit' }),
  API_KEY_RATE_PER_MINUTE: Type.Integer({
    minimum: 0,
    default: 600,
    description:
      'Public API requests per minute of a caller with an API key whose own limit is unset (the per-IP limit does not apply to keyed callers); 0: no limit',
  }),
  API_KEY_RATE_PER_DAY: Type.Integer({
    minimum: 0,
    default: 100000,
    description:
      'Public API requests per day (Beijing time) of a caller with an API key whose own limit is unset; 0: no limit',
  }),
  REFRESH_REUSE_GRACE: Type.String({
    default: '10s',
    description:
      'A refresh token presented again this soon after its own rotation lost a concurrent race (401, the session stays); later it counts as theft and ends the session',
  }),
  LOGIN_LOG_RETENTION: Type.String({
    default: '180d',
    description: 'How long login log rows are kept (pruned in the background, hourly); expired sessions go after a day',
  }),
  LOGIN_MAX_FAILURES: Type.Integer({
    minimum: 1,
    default: 5,
    description:
      'Failed sign-ins per (account, IP) before each further attempt waits 1, 2, 4, 8, then 15 minutes (429)',
  }),
  LOGIN_MAX_FAILURES_PER_IP: Type.Integer({
    minimum: 1,
    default: 30,
    description: 'Failed sign-ins per IP, across accounts, before the same growing delays',
  }),
  LOGIN_ACCOUNT_SLOWDOWN_AFTER: Type.Integer({
    minimum: 1,
    default: 100,
    description:
      'Failed sign-ins per account from all addresses after which every sign-in to it waits 2 s (slowed, never locked)',
  }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info', description: 'pino log level (fatal, error, warn, info, debug, trace, silent)' },
  ),
  LOG_REQUESTS: Type.Union(
    ['auto', 'true', 'false'].map((l) => Type.Literal(l)),
    {
      default: 'auto',
      description: 'One info line per request and per answer: auto = only when NODE_ENV=production',
    },
  ),
  USAGE_FLUSH_INTERVAL: Type.String({
    default: '60s',
    description: 'How often public API usage counts are written from memory to the database',
  }),
  PUBLIC_BASE_URL: Type.Optional(
    Type.String({
      description:
        'Absolute base URL used in generated links (avatars, images); default from the request, for a trusted host only (TRUSTED_HOSTS)',
    }),
  ),
  TRUSTED_HOSTS: Type.String({
    default: 'localhost,127.0.0.1,::1',
    description:
      'Without PUBLIC_BASE_URL: comma-separated host names whose Host header may appear in generated links; a request for any other host gets links relative to the site root',
  }),
  MAXMIND_CITY_DB: Type.Optional(Type.String({ description: 'Path to your own GeoLite2/GeoIP2 City .mmdb' })),
  MAXMIND_ASN_DB: Type.Optional(Type.String({ description: 'Path to your own GeoLite2 ASN .mmdb' })),
  PASSWORD_WORKERS: Type.Integer({
    minimum: 1,
    maximum: 64,
    default: 2,
    description:
      'Worker threads for /api/password-strength (about 25 MB each): one is loaded at start-up and kept, so that no burst waits for a thread to start; the others start when checks queue up and stop after 10 idle minutes. Passwords over 16 characters get one more thread of their own',
  }),
  PASSWORD_BUDGET_MS: Type.Integer({
    minimum: 100,
    maximum: 60_000,
    default: PASSWORD_BUDGET_MS,
    description:
      'Time budget of one /api/password-strength check in milliseconds, waiting for a thread included; a check that cannot finish in time is a 500 that says so. Raise it on a slow or crowded host whose answers say 密码强度检测超时',
  }),
  PASSWORD_MIN_LENGTH: Type.Integer({
    minimum: 1,
    maximum: 128,
    default: 8,
    description: 'Minimum length of a new admin password (creating a user, an operator reset, changing one’s own)',
  }),
  PASSWORD_MIN_SCORE: Type.Integer({
    minimum: 0,
    maximum: 4,
    default: 3,
    description:
      'Minimum zxcvbn score (0–4) of a new admin password, judged by the same engine as /api/password-strength',
  }),
});

export type Env = Static<typeof EnvSchema>;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string;
  redisUrl?: string;
  jwtSecret?: string;
  adminUsername: string;
  adminPassword?: string;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  refreshReuseGraceMs: number;
  loginLogRetentionMs: number;
  trustProxy: boolean | string[] | ((address: string, hop: number) => boolean);
  corsOrigins: string[];
  /** Origins an embedded-page menu may show (and the admin app's CSP lets it frame). */
  menuEmbedOrigins: string[];
  rateLimit: { max: number; windowMs: number };
  /** Default quotas of an API key whose own are unset (0: none). */
  apiKeyRate: { perMinute: number; perDay: number };
  loginThrottle: { perAccountIp: number; perIp: number; accountSlowdownAfter: number };
  logLevel: string;
  /** Fastify's request/response lines (LOG_REQUESTS; auto = NODE_ENV=production). */
  logRequests: boolean;
  publicBaseUrl?: string;
  trustedHosts: string[];
  usageFlushMs: number;
  maxmind: { cityDb?: string; asnDb?: string };
  passwordWorkers: number;
  passwordBudgetMs: number;
  /** What a new admin password must meet (admin/auth/password-policy.ts). */
  passwordPolicy: { minLength: number; minScore: number };
}

export class ConfigError extends Error {}

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** Parses `900`, `15m`, `7d` into seconds. */
export function parseDuration(name: string, raw: string): number {
  const m = /^(\d+)\s*([smhd]?)$/.exec(raw.trim());
  if (!m)
    throw new ConfigError(`${name} must be a number of seconds or a number followed by s, m, h or d (got "${raw}")`);
  const seconds = Number(m[1]) * UNIT_SECONDS[m[2] || 's'];
  if (seconds <= 0) throw new ConfigError(`${name} must be greater than zero (got "${raw}")`);
  return seconds;
}

/** A comma-separated list of http(s) origins, each normalised to `scheme://host[:port]`. */
function parseOrigins(name: string, raw: string): string[] {
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      let url: URL;
      try {
        url = new URL(s);
      } catch {
        throw new ConfigError(`${name}: "${s}" is not an origin like https://grafana.example.com`);
      }
      if (!/^https?:$/.test(url.protocol) || url.pathname !== '/' || url.search || url.hash)
        throw new ConfigError(`${name}: "${s}" must be an http(s) origin with no path (https://grafana.example.com)`);
      return url.origin;
    });
}

function parseTrustProxy(raw: string): Config['trustProxy'] {
  const v = raw.trim().toLowerCase();
  if (v === '' || v === 'false' || v === '0') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    return (_address: string, hop: number) => hop < hops;
  }
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Reads and validates the environment once. Throws ConfigError naming the variable at fault. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(EnvSchema.properties)) {
    const v = env[key];
    if (v !== undefined && v !== '') raw[key] = v;
  }
  const withDefaults = Value.Default(EnvSchema, Value.Convert(EnvSchema, raw)) as Record<string, unknown>;
  const first = [...Value.Errors(EnvSchema, withDefaults)][0];
  if (first) {
    const name = first.path.replace(/^\//, '');
    throw new ConfigError(`Invalid setting ${name}: ${first.message} (got "${String(raw[name])}")`);
  }
  const e = withDefaults as Env;
  const dataDir = path.resolve(e.DATA_DIR);
  let databaseUrl = e.DATABASE_URL ?? `sqlite:${path.join(dataDir, 'tianji.db')}`;
  if (!/^(postgres(ql)?:\/\/|sqlite:)/.test(databaseUrl)) databaseUrl = `sqlite:${databaseUrl}`;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl,
    redisUrl: e.REDIS_URL,
    jwtSecret: e.JWT_SECRET,
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD,
    accessTokenTtl: parseDuration('ACCESS_TOKEN_TTL', e.ACCESS_TOKEN_TTL),
    refreshTokenTtl: parseDuration('REFRESH_TOKEN_TTL', e.REFRESH_TOKEN_TTL),
    refreshReuseGraceMs: parseDuration('REFRESH_REUSE_GRACE', e.REFRESH_REUSE_GRACE) * 1000,
    loginLogRetentionMs: parseDuration('LOGIN_LOG_RETENTION', e.LOGIN_LOG_RETENTION) * 1000,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    corsOrigins: e.CORS_ORIGINS.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    menuEmbedOrigins: parseOrigins('MENU_EMBED_ORIGINS', e.MENU_EMBED_ORIGINS),
    rateLimit: { max: e.RATE_LIMIT_MAX, windowMs: parseDuration('RATE_LIMIT_WINDOW', e.RATE_LIMIT_WINDOW) * 1000 },
    apiKeyRate: { perMinute: e.API_KEY_RATE_PER_MINUTE, perDay: e.API_KEY_RATE_PER_DAY },
    loginThrottle: {
      perAccountIp: e.LOGIN_MAX_FAILURES,
      perIp: e.LOGIN_MAX_FAILURES_PER_IP,
      accountSlowdownAfter: e.LOGIN_ACCOUNT_SLOWDOWN_AFTER,
    },
    logLevel: e.LOG_LEVEL,
    // NODE_ENV is not a tianji setting (Node tooling reads it too), only what `auto` follows.
    logRequests: e.LOG_REQUESTS === 'auto' ? env.NODE_ENV === 'production' : e.LOG_REQUESTS === 'true',
    usageFlushMs: parseDuration('USAGE_FLUSH_INTERVAL', e.USAGE_FLUSH_INTERVAL) * 1000,
    publicBaseUrl: e.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
    trustedHosts: e.TRUSTED_HOSTS.split(',')
      .map((s) =>
        s
          .trim()
          .toLowerCase()
          .replace(/^\[(.*)\]$/, '$1'),
      )
      .filter(Boolean),
    maxmind: { cityDb: e.MAXMIND_CITY_DB, asnDb: e.MAXMIND_ASN_DB },
    passwordWorkers: e.PASSWORD_WORKERS,
    passwordBudgetMs: e.PASSWORD_BUDGET_MS,
    passwordPolicy: { minLength: e.PASSWORD_MIN_LENGTH, minScore: e.PASSWORD_MIN_SCORE },
  };
}

/**
 * Refuses a PostgreSQL deployment without JWT_SECRET. Instances sharing a database are meant to be interchangeable
 * behind a proxy; without one shared secret each would generate its own in its own DATA_DIR, and a sign-in on one
 * would be rejected by the next. (SQLite is one process on one folder, where the generated secret is enough.)
 */
export function assertSharedSecret(config: Config): void {
  if (config.jwtSecret || !/^postgres(ql)?:\/\//.test(config.databaseUrl)) return;
  throw new ConfigError(
    'JWT_SECRET 未设置：使用 PostgreSQL（DATABASE_URL=postgres://…）时必须设置，且所有实例取同一个值（至少 32 个字符，例如 `openssl rand -base64 48` 的输出）。' +
      ' JWT_SECRET is required with PostgreSQL: instances sharing the database must share one signing secret, or a token signed by one instance is rejected by the others.',
  );
}

/** The settings table of docs/guide/configuration.md, generated from the schema so the two cannot drift. */
export function describeSettings(): Array<{ name: string; default: string; description: string }> {
  return Object.entries(EnvSchema.properties).map(([name, s]) => ({
    name,
    default: (s as { default?: unknown }).default === undefined ? '' : String((s as { default?: unknown }).default),
    description: (s as { description?: string }).description ?? '',
  }));
}
