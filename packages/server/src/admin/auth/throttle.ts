import type { Redis } from 'ioredis';

/**
 * Counts failed logins per key inside a fixed window. In memory by default; in Redis when configured, so several
 * instances share one count.
 */
export interface FailureCounter {
  /** Records a failure, returns the count in the current window. */
  hit(key: string): Promise<number>;
  /** Current count and seconds until the window resets. */
  peek(key: string): Promise<{ count: number; retryAfter: number }>;
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

  async hit(key: string) {
    const e = this.live(key) ?? { count: 0, resetAt: Date.now() + this.windowMs };
    e.count += 1;
    this.entries.set(key, e);
    if (this.entries.size > 100_000) this.sweep();
    return e.count;
  }

  async peek(key: string) {
    const e = this.live(key);
    return { count: e?.count ?? 0, retryAfter: e ? Math.ceil((e.resetAt - Date.now()) / 1000) : 0 };
  }

  async reset(key: string) {
    this.entries.delete(key);
  }

  private sweep() {
    const now = Date.now();
    for (const [k, e] of this.entries) if (e.resetAt <= now) this.entries.delete(k);
  }
}

export class RedisFailureCounter implements FailureCounter {
  constructor(
    private readonly redis: Redis,
    private readonly windowMs: number,
    private readonly prefix = 'tianji:login-fail:',
  ) {}

  async hit(key: string) {
    const k = this.prefix + key;
    const [[, count]] = (await this.redis.multi().incr(k).pexpire(k, this.windowMs, 'NX').exec()) as [[null, number], unknown];
    return count;
  }

  async peek(key: string) {
    const k = this.prefix + key;
    const [[, count], [, ttl]] = (await this.redis.multi().get(k).pttl(k).exec()) as [[null, string | null], [null, number]];
    return { count: Number(count ?? 0), retryAfter: ttl > 0 ? Math.ceil(ttl / 1000) : 0 };
  }

  async reset(key: string) {
    await this.redis.del(this.prefix + key);
  }
}
