import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { AppError } from '../../errors.js';
import { usernameKey } from '../shared/username-key.js';

export interface Attempt {
  /** Attempts counted in the current window, this one included. */
  count: number;
  /** Seconds until the window resets. */
  retryAfter: number;
}

/**
 * Counts sign-in attempts per key (account, IP) in a fixed window. An attempt is counted *before* the password
 * is checked and taken back when it succeeds or is refused: checking first and counting after the slow argon2
 * verify would let a burst of concurrent guesses all pass the check. In memory by default; in Redis when
 * configured, so several instances share one count.
 */
export interface FailureCounter {
  hit(key: string): Promise<Attempt>;
  /** Takes back one counted attempt (no-op once the window has ended). */
  undo(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

export class MemoryFailureCounter implements FailureCounter {
  private readonly entries = new Map<string, { count: number; resetAt: number }>();
  constructor(private readonly windowMs: number) {}

  private live(key: string) {
    const e = this.entries.get(key);
    if (e && e.resetAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e;
  }

  async hit(key: string): Promise<Attempt> {
    const e = this.live(key) ?? { count: 0, resetAt: Date.now() + this.windowMs };
    e.count += 1;
    this.entries.set(key, e);
    if (this.entries.size > 100_000) this.sweep();
    return { count: e.count, retryAfter: Math.ceil((e.resetAt - Date.now()) / 1000) };
  }

  async undo(key: string) {
    const e = this.live(key);
    if (e && --e.count <= 0) this.entries.delete(key);
  }

  async reset(key: string) {
    this.entries.delete(key);
  }

  private sweep() {
    const now = Date.now();
    for (const [k, e] of this.entries) if (e.resetAt <= now) this.entries.delete(k);
  }
}

// Both scripts are atomic on the server: the window starts with the first attempt and is never extended.
const HIT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}`;
const UNDO = `if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('DECR', KEYS[1]) end return 0`;

export class RedisFailureCounter implements FailureCounter {
  constructor(
    private readonly redis: Redis,
    private readonly windowMs: number,
    private readonly prefix = 'tianji:login-fail:',
  ) {}

  async hit(key: string): Promise<Attempt> {
    const [count, ttl] = (await this.redis.eval(HIT, 1, this.prefix + key, this.windowMs)) as [number, number];
    return { count, retryAfter: Math.ceil(ttl / 1000) };
  }

  async undo(key: string) {
    await this.redis.eval(UNDO, 1, this.prefix + key);
  }

  async reset(key: string) {
    await this.redis.del(this.prefix + key);
  }
}

/**
 * Redis first; while Redis fails, this instance keeps counting in memory instead of failing every sign-in or
 * (worse) letting guesses through uncounted.
 */
export class FallbackFailureCounter implements FailureCounter {
  constructor(
    private readonly primary: FailureCounter,
    private readonly fallback: FailureCounter,
    private readonly log: FastifyBaseLogger,
  ) {}

  private async run<T>(op: (c: FailureCounter) => Promise<T>): Promise<T> {
    try {
      return await op(this.primary);
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'login throttle: redis unavailable, counting in memory');
      return op(this.fallback);
    }
  }

  hit(key: string) {
    return this.run((c) => c.hit(key));
  }
  undo(key: string) {
    return this.run((c) => c.undo(key));
  }
  reset(key: string) {
    return this.run((c) => c.reset(key));
  }
}

/** The counter the login route uses: Redis-backed (with an in-memory fallback) when Redis is configured. */
export function createFailureCounter(redis: Redis | undefined, windowMs: number, log: FastifyBaseLogger): FailureCounter {
  const memory = new MemoryFailureCounter(windowMs);
  return redis ? new FallbackFailureCounter(new RedisFailureCounter(redis, windowMs), memory, log) : memory;
}

/** One password check in flight, counted against its account and its IP. */
export interface CountedAttempt {
  keys: [account: string, ip: string];
}

/**
 * The sign-in throttle: at most `perAccount` failed password checks per account and `perIp` per client address
 * in a window; the next attempt gets 429 with Retry-After. Used by login and by the password change (a stolen
 * access token must not become a way to guess the password). The account key does not depend on whether the
 * account exists, so a 429 reveals nothing about it.
 */
export class LoginThrottle {
  constructor(
    private readonly counter: FailureCounter,
    private readonly limits: { perAccount: number; perIp: number },
  ) {}

  /** Counts the attempt; throws TOO_MANY_REQUESTS (and takes it back) when either limit is already used up. */
  async begin(username: string, ip: string): Promise<CountedAttempt> {
    const keys: CountedAttempt['keys'] = [`u:${usernameKey(username)}`, `ip:${ip}`];
    const [account, address] = await Promise.all(keys.map((k) => this.counter.hit(k)));
    const blocked = account.count > this.limits.perAccount ? account : address.count > this.limits.perIp ? address : undefined;
    if (blocked) {
      await this.abort({ keys });
      const seconds = Math.max(1, blocked.retryAfter);
      throw new AppError('TOO_MANY_REQUESTS', `too many failed sign-in attempts; try again in ${seconds} s`, { 'retry-after': String(seconds) });
    }
    return { keys };
  }

  /** The password was right: the account starts afresh and the attempt does not count against the IP. */
  async succeeded(a: CountedAttempt) {
    await Promise.all([this.counter.reset(a.keys[0]), this.counter.undo(a.keys[1])]);
  }

  /** The attempt ended without a password verdict (e.g. a server error): it does not count. */
  async abort(a: CountedAttempt) {
    await Promise.all(a.keys.map((k) => this.counter.undo(k)));
  }

  /**
   * Runs `check` as one counted attempt: a result keeps the count clean, `isFailure` errors keep it counted,
   * any other error takes it back.
   */
  async guard<T>(username: string, ip: string, check: () => Promise<T>, isFailure: (e: unknown) => boolean): Promise<T> {
    const attempt = await this.begin(username, ip);
    let result: T;
    try {
      result = await check();
    } catch (e) {
      if (!isFailure(e)) await this.abort(attempt);
      throw e;
    }
    await this.succeeded(attempt);
    return result;
  }
}
