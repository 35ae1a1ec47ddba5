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

/** The limits of one request's two windows (MAX_SAFE_INTEGER: none) and its time. */
interface Windows {
  now: number;
  perMinute: number;
  perDay: number;
  minute: number;
  day: number;
}

const minuteEnds = (minute: number) => (minute + 1) * MINUTE_MS;
const dayEnds = (day: number) => (day + 1) * DAY_MS - SHANGHAI_OFFSET_MS;

function result(
  w: Windows,
  window: QuotaResult['window'],
  limit: number,
  used: number,
  ends: number,
  allowed: boolean,
): QuotaResult {
  return {
    allowed,
    window,
    limit: limit === Number.MAX_SAFE_INTEGER ? 0 : limit,
    remaining: Math.max(0, limit - used),
    reset: Math.max(1, Math.ceil((ends - w.now) / 1000)),
  };
}

/** The answer to counts `m` and `d` (d -1: the minute refused and the day was not counted). */
function judge(w: Windows, m: number, d: number): QuotaResult {
  const minuteLeft = w.perMinute - m;
  if (minuteLeft < 0) return result(w, 'minute', w.perMinute, m, minuteEnds(w.minute), false);
  if (d > w.perDay) return result(w, 'day', w.perDay, d, dayEnds(w.day), false);
  // Report the window with less room left.
  return w.perDay - d < minuteLeft
    ? result(w, 'day', w.perDay, d, dayEnds(w.day), true)
    : result(w, 'minute', w.perMinute, m, minuteEnds(w.minute), true);
}

/** One key's counts in this instance's memory: the minute and day they belong to, and the two counts. */
interface Counts {
  minute: number;
  m: number;
  day: number;
  d: number;
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
  /**
   * By key id: the ids come from stored keys, so the map is bounded by them, and the id string a cached key carries is
   * the same object on every request (its hash is computed once): a counted request builds no string.
   */
  private readonly memory = new Map<string, Counts>();
  private degraded = false;

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly redis?: Redis,
  ) {}

  /** Counts one request; answered at once when counting in memory, a promise when counting in Redis. */
  take(id: string, limits: KeyLimits, now = Date.now()): QuotaResult | Promise<QuotaResult> {
    const w: Windows = {
      now,
      perMinute: limits.perMinute > 0 ? limits.perMinute : Number.MAX_SAFE_INTEGER,
      perDay: limits.perDay > 0 ? limits.perDay : Number.MAX_SAFE_INTEGER,
      minute: Math.floor(now / MINUTE_MS),
      day: Math.floor((now + SHANGHAI_OFFSET_MS) / DAY_MS),
    };
    const redis = this.redis;
    if (redis && redis.status === 'ready')
      return redis
        .eval(
          TAKE,
          2,
          `tianji:ak:m:${id}:${w.minute}`,
          `tianji:ak:d:${id}:${w.day}`,
          minuteEnds(w.minute) - now + 1000,
          dayEnds(w.day) - now + 1000,
          w.perMinute,
        )
        .then(
          (counts) => {
            this.setDegraded(false);
            const [m, d] = counts as [number, number];
            return judge(w, m, d);
          },
          (err: Error) => {
            this.setDegraded(true, err.message);
            return this.takeInMemory(id, w);
          },
        );
    if (redis) this.setDegraded(true, `redis ${redis.status}`);
    return this.takeInMemory(id, w);
  }

  private takeInMemory(id: string, w: Windows): QuotaResult {
    let c = this.memory.get(id);
    if (!c) this.memory.set(id, (c = { minute: w.minute, m: 0, day: w.day, d: 0 }));
    if (c.minute !== w.minute) {
      c.minute = w.minute;
      c.m = 0;
    }
    if (c.day !== w.day) {
      c.day = w.day;
      c.d = 0;
    }
    const m = ++c.m;
    return judge(w, m, m > w.perMinute ? -1 : ++c.d);
  }

  private setDegraded(now: boolean, reason?: string) {
    if (now === this.degraded) return;
    this.degraded = now;
    if (now) this.log.warn({ reason }, 'redis unavailable: API key quotas are counted per instance until it returns');
    else this.log.info('redis available again: API key quotas are shared by all instances');
  }
}
