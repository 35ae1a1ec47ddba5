import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** Day windows turn over at Beijing midnight, as usage days do. */
const SHANGHAI_OFFSET_MS = 8 * 3_600_000;

/**
 * Both windows of a key in one atomic step on the Redis server: the minute counter first; only a request the minute
 * allows counts against the day. Returns the two counts (day -1 when the minute refused).
 */
const TAKE = `local m = redis.call('INCR', KEYS[1])
if m == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
if m > tonumber(ARGV[3]) then return {m, -1} end
local d = redis.call('INCR', KEYS[2])
if d == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
return {m, d}`;

export interface QuotaResult {
  allowed: boolean;
  /** Which window the figures below are of. */
  window: 'minute' | 'day';
  /** The window nearest to running out (or the one that ran out): what the RateLimit headers report. */
  limit: number;
  remaining: number;
  /** Seconds until that window starts over. */
  reset: number;
}

/** The two windows of one request: limits (MAX_SAFE_INTEGER: none) and when each ends (epoch ms). */
interface Windows {
  now: number;
  perMinute: number;
  perDay: number;
  minuteEnds: number;
  dayEnds: number;
}

/** The answer to counts `[minute, day]` (day -1: the minute refused and the day was not counted). */
function judge(w: Windows, [m, d]: [number, number]): QuotaResult {
  const result = (window: QuotaResult['window'], limit: number, used: number, ends: number, allowed: boolean) => ({
    allowed,
    window,
    limit: limit === Number.MAX_SAFE_INTEGER ? 0 : limit,
    remaining: Math.max(0, limit - used),
    reset: Math.max(1, Math.ceil((ends - w.now) / 1000)),
  });
  const minuteLeft = w.perMinute - m;
  if (minuteLeft < 0) return result('minute', w.perMinute, m, w.minuteEnds, false);
  if (d > w.perDay) return result('day', w.perDay, d, w.dayEnds, false);
  // Report the window with less room left.
  return w.perDay - d < minuteLeft
    ? result('day', w.perDay, d, w.dayEnds, true)
    : result('minute', w.perMinute, m, w.minuteEnds, true);
}

export interface KeyLimits {
  /** 0 = no limit for that window. */
  perMinute: number;
  perDay: number;
}

/**
 * Per-key fixed windows (a minute, a Beijing day), aligned to the clock so every instance counts in the same bucket:
 * in Redis when it is configured and reachable (exact across instances: one script INCRs and sets the expiry
 * atomically), in this instance's memory otherwise.
 */
export class KeyQuota {
  private readonly memory = new Map<string, { count: number; until: number }>();
  private degraded = false;

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly redis?: Redis,
  ) {}

  /** Counts one request; answered at once when counting in memory, a promise when counting in Redis. */
  take(id: string, limits: KeyLimits, now = Date.now()): QuotaResult | Promise<QuotaResult> {
    const minute = Math.floor(now / MINUTE_MS);
    const day = Math.floor((now + SHANGHAI_OFFSET_MS) / DAY_MS);
    const w: Windows = {
      now,
      perMinute: limits.perMinute > 0 ? limits.perMinute : Number.MAX_SAFE_INTEGER,
      perDay: limits.perDay > 0 ? limits.perDay : Number.MAX_SAFE_INTEGER,
      minuteEnds: (minute + 1) * MINUTE_MS,
      dayEnds: (day + 1) * DAY_MS - SHANGHAI_OFFSET_MS,
    };
    const mKey = `tianji:ak:m:${id}:${minute}`;
    const dKey = `tianji:ak:d:${id}:${day}`;
    const redis = this.redis;
    if (redis && redis.status === 'ready')
      return redis.eval(TAKE, 2, mKey, dKey, w.minuteEnds - now + 1000, w.dayEnds - now + 1000, w.perMinute).then(
        (counts) => {
          this.setDegraded(false);
          return judge(w, counts as [number, number]);
        },
        (err: Error) => {
          this.setDegraded(true, err.message);
          return this.takeInMemory(w, mKey, dKey);
        },
      );
    if (redis) this.setDegraded(true, `redis ${redis.status}`);
    return this.takeInMemory(w, mKey, dKey);
  }

  private takeInMemory(w: Windows, mKey: string, dKey: string): QuotaResult {
    const m = this.bump(mKey, w.minuteEnds - w.now);
    return judge(w, [m, m > w.perMinute ? -1 : this.bump(dKey, w.dayEnds - w.now)]);
  }

  private bump(key: string, ttl: number): number {
    const now = Date.now();
    let e = this.memory.get(key);
    if (!e || e.until <= now) {
      if (this.memory.size >= 100_000) for (const [k, v] of this.memory) if (v.until <= now) this.memory.delete(k);
      this.memory.set(key, (e = { count: 0, until: now + ttl }));
    }
    return ++e.count;
  }

  private setDegraded(now: boolean, reason?: string) {
    if (now === this.degraded) return;
    this.degraded = now;
    if (now) this.log.warn({ reason }, 'redis unavailable: API key quotas are counted per instance until it returns');
    else this.log.info('redis available again: API key quotas are shared by all instances');
  }
}
