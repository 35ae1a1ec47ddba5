import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { usernameKey } from '../shared/username-key.js';

/**
 * Sign-in throttling that an attacker cannot turn against the owner of an account.
 *
 * Failures are counted per (account, IP) and per IP. Each key has a free allowance (`perAccountIp`, `perIp`); past
 * it, every further attempt must wait a delay after the key's last failure that doubles with each failure —
 * 1, 2, 4, 8, then 15 minutes at most — and is answered 429 with Retry-After meanwhile. So a guesser is held at one
 * guess per 15 minutes per address, while the owner, from an address that has not failed, signs in as usual.
 * Failures per account from all addresses only ever slow down (`accountSlowdownAfter`: each attempt then waits
 * `slowdownMs` before the password check), never lock. A key is forgotten an hour after its last failure; a
 * successful sign-in clears its (account, IP) key; `npm run admin -- unlock` or an operator's 解锁
 * (POST /api/users/{id}/unlock) clears every key of an account.
 *
 * An attempt is counted *before* the password is checked and taken back when it succeeds or errs otherwise, so a
 * concurrent burst cannot slip more guesses past the allowance than it allows.
 */
export interface ThrottleLimits {
  perAccountIp: number;
  perIp: number;
  accountSlowdownAfter: number;
  slowdownMs?: number;
}

const MINUTE = 60_000;
const FIRST_DELAY_MS = MINUTE;
const MAX_DELAY_MS = 15 * MINUTE;
const FORGET_AFTER_MS = 60 * MINUTE;
const DEFAULT_SLOWDOWN_MS = 2000;

/** The wait after the last failure once `excess` failures went past the allowance: 1, 2, 4, 8, 15, 15… minutes. */
export const delayAfter = (excess: number) => Math.min(FIRST_DELAY_MS * 2 ** (excess - 1), MAX_DELAY_MS);

/** The key of an account (every spelling sign-in matches: usernameKey, NFKC and case folded) and of an (account, IP) pair. */
export const accountKey = (username: string) => `a:${usernameKey(username)}`;
/** Length-prefixed, so the prefix of one account's keys can never be the prefix of another's (any text is a username). */
const pairPrefix = (username: string) => {
  const key = usernameKey(username);
  return `ua:${key.length}:${key}|`;
};
const pairKey = (username: string, ip: string) => pairPrefix(username) + ip;
const ipKey = (ip: string) => `ip:${ip}`;
/** Wrong second-step codes of an account, from every address. */
const secondStepKey = (username: string) => `t:${usernameKey(username)}`;

/** Wrong codes (TOTP or recovery), from any address, after which an account's second step is locked. */
export const SECOND_STEP_MAX_FAILURES = 10;
/** How long that lock lasts after the last wrong code. */
export const SECOND_STEP_LOCK_MS = 15 * MINUTE;

interface Counted {
  /** Attempts counted, this one included. */
  count: number;
  lastFailureAt: string | null;
}

/** The counters, in the database (migration 0007). */
export class FailureStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Counts one attempt, atomically; a key quiet for an hour starts again from zero. */
  async hit(key: string, now: number): Promise<Counted> {
    const at = new Date(now).toISOString();
    const stale = new Date(now - FORGET_AFTER_MS).toISOString();
    const row = await this.db
      .insertInto('login_failures')
      .values({ key, count: 1, last_failure_at: null, updated_at: at })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          count: sql`case when login_failures.updated_at < ${stale} then 1 else login_failures.count + 1 end`,
          last_failure_at: sql`case when login_failures.updated_at < ${stale} then null else login_failures.last_failure_at end`,
          updated_at: at,
        }),
      )
      .returning(['count', 'last_failure_at'])
      .executeTakeFirstOrThrow();
    return { count: Number(row.count), lastFailureAt: row.last_failure_at };
  }

  /**
   * True the first time `key` is claimed, false ever after (until pruned, an hour on): marks a single-use token
   * (an mfaToken's jti) as spent, atomically, in the same table and with the same pruning as the counters.
   */
  async claimOnce(key: string, now: number): Promise<boolean> {
    const at = new Date(now).toISOString();
    const res = await this.db
      .insertInto('login_failures')
      .values({ key, count: 0, last_failure_at: null, updated_at: at })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  // One row per statement: a statement locking several rows could deadlock on PostgreSQL with another locking
  // them in a different order (two sign-ins sharing an address and an account).
  async undo(keys: string[]): Promise<void> {
    await Promise.all(
      keys.map((key) =>
        this.db
          .updateTable('login_failures')
          .set({ count: sql`case when count > 0 then count - 1 else 0 end` })
          .where('key', '=', key)
          .execute(),
      ),
    );
  }

  async failed(keys: string[], now: number): Promise<void> {
    const at = new Date(now).toISOString();
    await Promise.all(
      keys.map((key) =>
        this.db
          .updateTable('login_failures')
          .set({ last_failure_at: at, updated_at: at })
          .where('key', '=', key)
          .execute(),
      ),
    );
  }

  async clear(keys: string[]): Promise<void> {
    await this.db.deleteFrom('login_failures').where('key', 'in', keys).execute();
  }

  /** Clears every counter of an account (from every address); returns how many were cleared. */
  async clearAccount(username: string): Promise<number> {
    const prefix = pairPrefix(username);
    const res = await this.db
      .deleteFrom('login_failures')
      .where((eb) =>
        eb.or([
          eb('key', 'in', [accountKey(username), secondStepKey(username)]),
          eb(sql`substr(key, 1, ${prefix.length})`, '=', prefix),
        ]),
      )
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }

  /** Drops counters quiet for over an hour. */
  async prune(now: number): Promise<void> {
    await this.db
      .deleteFrom('login_failures')
      .where('updated_at', '<', new Date(now - FORGET_AFTER_MS).toISOString())
      .execute();
  }
}

/** A refused attempt (429): `请在 N 分钟后重试` with the seconds for programs, N rounded up; `key` is the counter that refused. */
export class Throttled extends AppError {
  constructor(
    waitMs: number,
    readonly key: string,
    what = '登录失败次数过多',
    english = 'too many failed sign-in attempts',
  ) {
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    super(
      'TOO_MANY_REQUESTS',
      `${what}，请在 ${Math.ceil(seconds / 60)} 分钟后重试 (${english}; try again in ${seconds} s)`,
      {
        'retry-after': String(seconds),
      },
    );
  }
}

/** The second step of an account is locked: whoever typed the codes already holds its password. */
export class SecondStepLocked extends Throttled {
  constructor(waitMs: number, key: string) {
    super(waitMs, key, '两步验证码错误次数过多，该账号的两步验证已暂时锁定', 'too many wrong codes for this account');
  }
}

export class LoginThrottle {
  readonly store: FailureStore;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    store: FailureStore,
    private readonly limits: ThrottleLimits,
    opts: { now?: () => number; sleep?: (ms: number) => Promise<void> } = {},
  ) {
    this.store = store;
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /** How long an attempt counted as `c` must still wait (0: go ahead). In-flight attempts count as failing now. */
  private waitFor(c: Counted, free: number, now: number): number {
    const prior = c.count - 1;
    if (prior < free) return 0;
    const last = c.lastFailureAt ? Date.parse(c.lastFailureAt) : now;
    return Math.max(0, last + delayAfter(prior - free + 1) - now);
  }

  /**
   * Runs `check` as one counted attempt: a result clears the (account, IP) key, `isFailure` errors keep it
   * counted, any other error takes it back. Throws 429 (with Retry-After) without running `check` when held back.
   */
  async guard<T>(
    username: string,
    ip: string,
    check: () => Promise<T>,
    isFailure: (e: unknown) => boolean,
  ): Promise<T> {
    const now = this.now();
    const keys = [pairKey(username, ip), ipKey(ip), accountKey(username)];
    // The (account, IP) key first, and the others only for an attempt it lets through: counted all at once, a burst's
    // attempts would get their pair and address counts in different orders, and one within the pair allowance could
    // be refused for an address count that attempts beyond that allowance had pushed up.
    const pair = await this.store.hit(keys[0], now);
    const pairWait = this.waitFor(pair, this.limits.perAccountIp, now);
    if (pairWait > 0) {
      await this.store.undo([keys[0]]);
      throw new Throttled(pairWait, keys[0]);
    }
    const [address, account] = await Promise.all(keys.slice(1).map((k) => this.store.hit(k, now)));
    const wait = this.waitFor(address, this.limits.perIp, now);
    if (wait > 0) {
      await this.store.undo(keys);
      throw new Throttled(wait, keys[1]);
    }
    if (account.count - 1 >= this.limits.accountSlowdownAfter)
      await this.sleep(this.limits.slowdownMs ?? DEFAULT_SLOWDOWN_MS);
    let result: T;
    try {
      result = await check();
    } catch (e) {
      if (isFailure(e)) await this.store.failed(keys, this.now());
      else await this.store.undo(keys);
      throw e;
    }
    await this.store.clear([keys[0]]);
    await this.store.undo(keys.slice(1));
    return result;
  }

  /**
   * The second step (TOTP or recovery code) of a sign-in, capped per account as well: whoever reaches it holds the
   * password, so the account may be locked here without handing a stranger a way to lock its owner out.
   * SECOND_STEP_MAX_FAILURES wrong codes from any addresses lock the step for SECOND_STEP_LOCK_MS after the last
   * one (429, SecondStepLocked); the usual (account, IP) and IP limits of `guard` apply inside. Only a right code
   * clears the count: a right password does not (interleaving passwords and codes raised the budget sixfold).
   */
  async guardSecondStep<T>(
    username: string,
    ip: string,
    check: () => Promise<T>,
    isFailure: (e: unknown) => boolean,
  ): Promise<T> {
    const key = secondStepKey(username);
    const now = this.now();
    const counted = await this.store.hit(key, now);
    if (counted.count - 1 >= SECOND_STEP_MAX_FAILURES) {
      // Attempts still in flight count as failing now.
      const last = counted.lastFailureAt ? Date.parse(counted.lastFailureAt) : now;
      const wait = last + SECOND_STEP_LOCK_MS - now;
      if (wait > 0) {
        await this.store.undo([key]);
        throw new SecondStepLocked(wait, key);
      }
      // The lock has run out: a fresh allowance, this attempt its first.
      await this.store.clear([key]);
      await this.store.hit(key, now);
    }
    let result: T;
    try {
      result = await this.guard(username, ip, check, isFailure);
    } catch (e) {
      if (isFailure(e)) await this.store.failed([key], this.now());
      else await this.store.undo([key]);
      throw e;
    }
    await this.store.clear([key]);
    return result;
  }

  /**
   * Whether a refusal is the first of its key (within the hour its mark is kept): the login log keeps one row per
   * throttled key instead of one per refused request (200 refused requests wrote 200 rows).
   */
  firstRefusal(e: Throttled): Promise<boolean> {
    return this.store.claimOnce(`r:${e.key}`, Date.now());
  }
}
