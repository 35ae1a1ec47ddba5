import { readdir } from 'node:fs/promises';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import { AppError } from '../errors.js';
import { LOOKUP_GROUPS, type LookupGroup } from '../catalogue/lookup-groups.js';
import { fallbackRateLimitStore } from '../http/rate-limit-store.js';
import dropIns from './drop-in/index.js';
import { apiKeyGate, type PerIpLimit } from './keys/gate.js';

/** A route file: `*-route.ts` in the sources (dev server, tests), `*-route.js` in the compiled dist/. */
const ROUTE_FILE = /-route\.[jt]s$/;

/**
 * The route files of every group, read from the folders at start-up: a folder under groups/ is a group (its
 * OpenAPI tag in LOOKUP_GROUPS); what groups share lives in `shared/` beside it. A new endpoint is a file, not a
 * list entry.
 * Groups come in LOOKUP_GROUPS order, files in name order, so the OpenAPI document is the same on every start.
 */
export async function groupRouteFiles(): Promise<Array<{ group: LookupGroup; files: URL[] }>> {
  const here = new URL('./groups/', import.meta.url);
  const folders = (await readdir(here, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  const unknown = folders.filter((f) => !(f in LOOKUP_GROUPS));
  if (unknown.length > 0) {
    throw new Error(
      `public/groups/${unknown.join(', public/groups/')}: not a group in LOOKUP_GROUPS (public/platform/lookup-platform.ts)`,
    );
  }
  return Promise.all(
    (Object.keys(LOOKUP_GROUPS) as LookupGroup[]).map(async (group) => {
      const dir = new URL(`./${group}/`, here);
      const names = (await readdir(dir)).filter((n) => ROUTE_FILE.test(n)).sort();
      return { group, files: names.map((n) => new URL(n, dir)) };
    }),
  );
}

/**
 * The public lookup API, mounted at /api, and the hitokoto.cn drop-in at /hitokoto/ beside it. Encapsulated: the
 * rate limit applies to these routes only, one limiter (one count per caller) for both.
 * Every `*-route` file of a group folder registers its endpoints through `lookupRoute` (public/platform/lookup-platform.ts),
 * which takes the group from the folder.
 */
export default async function lookupApi(app: FastifyInstance) {
  const { max, windowMs } = app.config.rateLimit;
  // The per-IP limit is not a hook of its own: the key step runs it for anonymous callers and bad keys only
  // (public/keys/gate.ts), so a caller with a valid key, counted against its key's quota instead, does not pass through it.
  let perIp: PerIpLimit | undefined;
  if (max > 0) {
    await app.register(rateLimit, {
      global: false,
      max,
      timeWindow: windowMs,
      // The IETF draft's RateLimit-Limit / -Remaining / -Reset, the same names keyed answers carry.
      enableDraftSpec: true,
      // Shared through Redis; counted per instance while Redis is down (http/rate-limit-store.ts).
      store: app.redis ? fallbackRateLimitStore(app.redis, app.log) : undefined,
      errorResponseBuilder: (_req, ctx) =>
        new AppError(
          'TOO_MANY_REQUESTS',
          `请求过于频繁：每个 IP 每 ${Math.round(windowMs / 1000)} 秒最多 ${ctx.max} 次，请 ${ctx.after} 后重试`,
        ),
    });
    // The limiter's own key (its default keyGenerator): the key step remembers addresses past the limit by it.
    perIp = { take: app.rateLimit(), keyOf: (req) => normalizeIP(req.ip) };
  }
  app.addHook('onRequest', apiKeyGate(app.config.apiKeyRate, perIp));
  await app.register(
    async (api) => {
      for (const { group, files } of await groupRouteFiles()) {
        await api.register(async (scope) => {
          scope.decorate('lookupGroup', group);
          for (const file of files) {
            const route = (await import(file.href)) as { default: FastifyPluginAsync };
            await scope.register(route.default);
          }
        });
      }
    },
    { prefix: '/api' },
  );
  // Under its own prefix, so that its 404 and error handlers answer everything below /hitokoto in its shape.
  await app.register(dropIns, { prefix: '/hitokoto' });
}
