import proxyWarnings from './http/proxy-warnings.js';
import Fastify, { type FastifyInstance, LogController, type RouteOptions } from 'fastify';
import { handleClientError, refuseBareRequests } from './http/client-errors.js';
import { Redis } from 'ioredis';
import type { Config } from './config.js';
import { openDatabase, type Db } from './db/index.js';
import { migrateToLatest } from './db/migrate.js';
import { withStartupLock } from './db/startup-lock.js';
import { apiSecurityHeaders, helmetHeaders } from './http/security-headers.js';
import errorHandler, { renderFrameworkError } from './http/error-handler.js';
import openapi from './web/openapi.js';
import cors from './http/cors.js';
import { declareRouteOf } from './http/route-of.js';
import { lazySchemaCompilers } from './http/lazy-schemas.js';
import { withFiniteNumbers } from './http/finite-numbers.js';
import { AdminErrorSchema, ErrorEnvelopeSchema } from './http/envelope.js';
import { MenuNodeSchema } from './admin/auth/schemas.js';
import { TokenService, resolveSecret } from './admin/auth/tokens.js';
import { seedDatabase } from './admin/seed.js';
import type { StartupTimer } from './startup-timer.js';
import { warnUsernameCollisions } from './admin/shared/username-key.js';
import adminApi from './admin/index.js';
import lookupApi from './public/index.js';
import healthRoutes from './http/health.js';
import adminApp from './web/admin-app.js';
import mobileApp from './web/mobile-app.js';
import docsSite from './web/docs-site.js';
import { ContentStore } from './content/store.js';
import monitor from './monitor/plugin.js';
import ipLookup from './engines/ip/plugin.js';
import passwordPool from './engines/password/plugin.js';
import apiKeys from './public/keys/plugin.js';
import './types.js';

export interface BuildOptions {
  config: Config;
  /** An already open database (tests); otherwise opened from config.databaseUrl and closed with the app. */
  db?: Db;
  /** Keep a generated JWT secret in the data folder (the server does; tests don't). */
  persistSecret?: boolean;
  logger?: boolean | object;
  /** Sees every route as it is registered (tests walk them all, e.g. to prove each admin route declares a permission). */
  onRoute?: (route: RouteOptions) => void;
  /** Receives the first super administrator's generated password (the server prints it as a banner); without it, it is logged. */
  onGeneratedPassword?: (password: string) => void;
  /** The limit on a plugin's start (PLUGIN_START_LIMIT_MS; 0: none): the bench lifts it to start under valgrind. */
  pluginTimeout?: number;
  /** The clock of session bookkeeping (tests move it to either side of the refresh grace window); default Date.now. */
  now?: () => number;
  /** Marks the stages of the build (`redis` when configured, `database`) for the server's start-up line. */
  startup?: StartupTimer;
}

/**
 * How long one plugin may take to start before the boot fails; every buildApp (the server, the tests, the CLI's
 * admin commands) uses it, only the bench lifts it. Fastify's own 10 s stopped the service (and 94 test files) on a
 * busy 2-core host while the public API's data sets loaded (issue 49: 'Plugin did not start in time: lookupApi'),
 * where idle the slowest plugin takes about a second: a slow disk or a busy host must not keep the service from
 * starting, and a real hang still ends the boot with Fastify's message naming the plugin.
 */
export const PLUGIN_START_LIMIT_MS = 120_000;

/**
 * Builds the Fastify instance: external plugins, then the app's own plugins, then the two APIs.
 * Migrations and the first-start seed run here, so every entry point (server, tests, CLI) gets a ready database.
 */
export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config } = opts;
  const app: FastifyInstance = Fastify({
    logger: opts.logger ?? { level: config.logLevel },
    pluginTimeout: opts.pluginTimeout ?? PLUGIN_START_LIMIT_MS,
    // A line per request and per answer only where a log collector wants them (LOG_REQUESTS).
    logController: new LogController({ disableRequestLogging: !config.logRequests }),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // removeAdditional off: a body field a schema does not know is a 400 naming it (as an unknown query parameter of
    // the public API is), not silently dropped — a typo must not look like success (issue 26).
    ajv: {
      customOptions: { verbose: true, keywords: ['x-hint', 'x-names'], allErrors: false, removeAdditional: false },
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Malformed paths are answered in the area's own body shape, not Fastify's (http/error-handler.ts).
    frameworkErrors: renderFrameworkError,
    // What Node's parser refuses (431, malformed request line, raw UTF-8 in the URL) gets the area's body too.
    clientErrorHandler: (err, socket) => handleClientError(app, err, socket),
    // A request without Host, too, answered by refuseBareRequests below rather than by Node with an empty 400.
    http: { requireHostHeader: false },
    // Route schemas are compiled on a route's first request, not at start-up (http/lazy-schemas.ts); a number
    // parameter that ajv coerced to ±Infinity is refused like any wrong value (http/finite-numbers.ts).
    schemaController: { compilersFactory: withFiniteNumbers(lazySchemaCompilers()) as never },
    // fast-json-stringify checks an anyOf branch with ajv, which would warn about its own `unsafe` format (AsciiText).
    serializerOpts: { ajv: { formats: { unsafe: true } } },
  });

  refuseBareRequests(app);
  declareRouteOf(app);
  if (opts.onRoute) app.addHook('onRoute', opts.onRoute);
  const db = opts.db ?? openDatabase(config.databaseUrl);
  app.decorate('config', config);
  app.decorate('db', db);
  app.decorate(
    'tokens',
    new TokenService(
      resolveSecret(config.jwtSecret, config.dataDir, opts.persistSecret ?? false),
      config.accessTokenTtl,
      config.refreshTokenTtl,
    ),
  );
  if (config.redisUrl) {
    // No offline queue: while Redis is unreachable a command fails at once and its caller falls back (rate limit,
    // login throttle, content publish) instead of every request waiting for reconnection attempts.
    const redis = new Redis(config.redisUrl, {
      lazyConnect: false,
      maxRetriesPerRequest: 2,
      enableOfflineQueue: false,
    });
    redis.on('error', (err) => app.log.warn({ err: err.message }, 'redis error'));
    app.decorate('redis', redis);
    // A moment for the first connection, so the first requests already share counts; without Redis the service
    // starts all the same (rate limits per instance until it connects; see http/rate-limit-store.ts).
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 3000);
      redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    opts.startup?.mark('redis');
  }
  app.addHook('onClose', async () => {
    await app.redis?.quit().catch(() => undefined);
    if (!opts.db) await db.close();
  });

  // Public endpoints read the content library from memory; it is loaded (and seeded on first start) before routes.
  const content = new ContentStore(db.kysely, app.log, app.redis);
  // Two instances starting at once on an empty database must migrate and seed once, not twice (db/startup-lock.ts).
  const seeded = await withStartupLock(db, async () => {
    await migrateToLatest(db);
    await warnUsernameCollisions(db.kysely, app.log);
    const result = await seedDatabase(db.kysely, {
      adminUsername: config.adminUsername,
      adminPassword: config.adminPassword,
      passwordPolicy: config.passwordPolicy,
    });
    await content.init();
    return result;
  });
  if (seeded.weakPassword) {
    app.log.warn(
      `ADMIN_PASSWORD 不符合密码策略（${seeded.weakPassword}）：超级管理员 "${config.adminUsername}" 首次登录后须先修改密码 · ADMIN_PASSWORD is below the password policy: the account must change it at first sign-in`,
    );
  }
  if (seeded.generatedPassword && opts.onGeneratedPassword) {
    app.log.warn(
      `Created the first super administrator "${config.adminUsername}" with a generated password (see the banner on stderr)`,
    );
    opts.onGeneratedPassword(seeded.generatedPassword);
  } else if (seeded.generatedPassword) {
    app.log.warn(
      `Created the first super administrator "${config.adminUsername}" with the generated password: ${seeded.generatedPassword} (shown once; change it after signing in)`,
    );
  }
  app.decorate('content', content);
  app.addHook('onClose', () => content.close());
  opts.startup?.mark('database');

  app.addSchema(ErrorEnvelopeSchema);
  app.addSchema(AdminErrorSchema);
  app.addSchema(MenuNodeSchema);

  await app.register(errorHandler);
  await app.register(proxyWarnings, { trustProxy: config.trustProxy });
  // Pages' security headers, from helmet; API answers get the lean set (issue 31). Set with CORS's in one hook (http/cors.ts).
  const pageHeaders = helmetHeaders({
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // No 'unsafe-inline' for scripts: pages that need an inline script allow it by hash (web/csp-hashes.ts).
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        // Embedded-page menus (admin/menus/target.ts) frame exactly the origins the operator listed.
        frameSrc: config.menuEmbedOrigins.length ? config.menuEmbedOrigins : ["'none'"],
        // Self-hosted installs are often reached over plain HTTP (a LAN address): upgrading would break /admin and /docs assets.
        upgradeInsecureRequests: null,
      },
    },
  });
  // The public API is open to every origin; the admin API only to CORS_ORIGINS.
  await app.register(cors, {
    adminOrigins: config.corsOrigins,
    pageHeaders,
    apiHeaders: apiSecurityHeaders(pageHeaders),
  });
  await app.register(openapi);
  await app.register(healthRoutes);
  await app.register(monitor);
  await app.register(ipLookup);
  await app.register(passwordPool);
  await app.register(apiKeys);
  await app.register(adminApi, { now: opts.now });
  await app.register(lookupApi);
  await app.register(adminApp);
  await app.register(mobileApp);
  await app.register(docsSite);
  return app;
}
