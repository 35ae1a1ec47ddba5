import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';

type Callback = Parameters<FastifyRateLimitStore['incr']>[1];

// Atomic on the server: the window starts with the first request and is never extended.
const INCR = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}`;

/**
 * A public rate limit shared by every instance through Redis, that keeps working when Redis does not: while Redis
 * is unreachable each instance counts in its own memory (so the effective limit is per instance, at most N × max
 * for N instances) instead of either refusing every request or letting all through uncounted. The switch is logged
 * once each way (and /readyz shows it). Counts made in memory during an outage are not carried over to Redis.
 *
 * @example await app.register(rateLimit, { max, timeWindow, store: fallbackRateLimitStore(app.redis, app.log) })
 */
export function fallbackRateLimitStore(
  redis: Redis,
  log: FastifyBaseLogger,
  prefix = 'tianji:rl:',
): FastifyRateLimitStoreCtor {
  const memory = new Map<string, { count: number; resetAt: number }>();
  let degraded = false;
  const setDegraded = (now: boolean, reason?: string) => {
    if (now === degraded) return;
    degraded = now;
    if (now) log.warn({ reason }, 'redis unavailable: public rate limits are counted per instance until it returns');
    else log.info('redis available again: public rate limits are shared by all instances');
  };

  const countInMemory = (key: string, windowMs: number) => {
    const now = Date.now();
    let e = memory.get(key);
    if (!e || e.resetAt <= now) {
      if (memory.size >= 100_000) for (const [k, v] of memory) if (v.resetAt <= now) memory.delete(k);
      e = { count: 0, resetAt: now + windowMs };
      memory.set(key, e);
    }
    e.count += 1;
    return { current: e.count, ttl: e.resetAt - now };
  };

  class Store implements FastifyRateLimitStore {
    // The plugin constructs the store with its options; the limits arrive with every incr() instead.
    constructor(
      _options?: unknown,
      private readonly keyPrefix = prefix,
    ) {}

    incr(key: string, cb: Callback, timeWindow: number) {
      const k = this.keyPrefix + key;
      // Not connected: do not wait for reconnection attempts on every public request.
      if (redis.status !== 'ready') {
        setDegraded(true, `redis ${redis.status}`);
        cb(null, countInMemory(k, timeWindow));
        return;
      }
      redis.eval(INCR, 1, k, timeWindow).then(
        (res) => {
          setDegraded(false);
          const [current, ttl] = res as [number, number];
          cb(null, { current, ttl });
        },
        (err: Error) => {
          setDegraded(true, err.message);
          cb(null, countInMemory(k, timeWindow));
        },
      );
    }

    /** A route with its own limit (`config.rateLimit`) counts under its own keys, as the plugin's Redis store does. */
    child(options: Parameters<FastifyRateLimitStore['child']>[0]) {
      // At run time the plugin passes its merged options with the route under `routeInfo` (its types say RouteOptions).
      const route = ('routeInfo' in options ? options.routeInfo : options) as { method?: unknown; url?: unknown };
      return new Store(undefined, `${this.keyPrefix}${String(route.method)}${String(route.url)}-`);
    }
  }

  return Store;
}
