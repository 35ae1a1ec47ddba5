import type { FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { AppError } from '../errors.js';
import { fallbackRateLimitStore } from '../plugins/rate-limit-store.js';
import daily from './daily/index.js';
import random from './random/index.js';
import mood from './mood/index.js';
import life from './life/index.js';
import toolbox from './toolbox/index.js';

/**
 * The public lookup API, mounted at /api. Encapsulated: the rate limit applies to these routes only.
 * Each group's index registers its endpoints through `lookupRoute` (plugins/lookup-platform.ts).
 */
export default async function lookupApi(app: FastifyInstance) {
  const { max, windowMs } = app.config.rateLimit;
  if (max > 0) {
    await app.register(rateLimit, {
      max,
      timeWindow: windowMs,
      // Shared through Redis; counted per instance while Redis is down (plugins/rate-limit-store.ts).
      store: app.redis ? fallbackRateLimitStore(app.redis, app.log) : undefined,
      errorResponseBuilder: (_req, ctx) =>
        new AppError(
          'TOO_MANY_REQUESTS',
          `请求过于频繁：每个 IP 每 ${Math.round(windowMs / 1000)} 秒最多 ${ctx.max} 次，请 ${ctx.after} 后重试`,
        ),
    });
  }
  await app.register(daily);
  await app.register(random);
  await app.register(mood);
  await app.register(life);
  await app.register(toolbox);
}
