import { randomUUID } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { subscribeChannel } from '../plugins/redis-subscriber.js';
import { hashSecret, isSecretShaped, SECRET_LENGTH } from './secret.js';

const CHANNEL = 'tianji:api-keys-changed';
/** A looked-up key (or a miss) is trusted this long; a change made here or announced through Redis clears it at once. */
const CACHE_TTL_MS = 10_000;
/** Bounds the cache: random secrets (a scan) must not grow it without limit. */
const CACHE_LIMIT = 20_000;

/** What the public side needs to know of a key, parsed once per lookup. */
export interface ActiveKey {
  id: string;
  perMinute: number | null;
  perDay: number | null;
  groups: ReadonlySet<string> | null;
  origins: ReadonlySet<string> | null;
  addresses: BlockList | null;
  /** Epoch ms; null = never. */
  expiresAt: number | null;
  revoked: boolean;
  /** Found by the previous secret of a rotation: valid until this epoch ms. */
  graceUntil: number | null;
}

interface CacheEntry {
  key: ActiveKey | null;
  at: number;
}

const parseList = (json: string | null): string[] | null => (json === null ? null : (JSON.parse(json) as string[]));
const epoch = (iso: string | null) => (iso === null ? null : Date.parse(iso));

/** An address list (IPs and CIDRs, v4 or v6) as a BlockList for a fast `check`. */
export function addressMatcher(list: readonly string[]): BlockList {
  const block = new BlockList();
  for (const entry of list) {
    const [addr, bits] = entry.split('/');
    const type = isIP(addr) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) block.addAddress(addr, type);
    else block.addSubnet(addr, Number(bits), type);
  }
  return block;
}

/**
 * Keys by the hash of their secret, cached in memory (a public request costs no query once its key was seen), and
 * the require-a-key policy. A change (revoke, rotate, edit, policy) clears this instance's cache and, through Redis,
 * every other instance's: all refuse a revoked key within a second. Without Redis, per instance only.
 */
export class ApiKeyRegistry {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly instanceId = randomUUID();
  private subscription?: { close(): void };
  /** Public endpoint groups an anonymous caller may not call. */
  requireKeyGroups: ReadonlySet<string> = new Set();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
    private readonly redis?: Redis,
  ) {}

  async init(): Promise<void> {
    await this.loadPolicy();
    if (!this.redis) return;
    this.subscription = await subscribeChannel(this.redis, CHANNEL, this.log, {
      onMessage: (message) => {
        if (message !== this.instanceId) this.forget();
      },
      // Changes announced while Redis was unreachable never arrive.
      onReconnect: () => this.forget(),
    });
  }

  close(): void {
    this.subscription?.close();
  }

  /** After a committed change to a key or the policy: forget here and tell the other instances. */
  async changed(): Promise<void> {
    await this.forget();
    await this.redis
      ?.publish(CHANNEL, this.instanceId)
      .catch((err) => this.log.warn({ err: err.message }, 'api key change publish failed'));
  }

  private forget(): Promise<void> {
    this.cache.clear();
    return this.loadPolicy().catch((err) => this.log.error({ err }, 'api key policy reload failed'));
  }

  private async loadPolicy(): Promise<void> {
    const row = await this.db
      .selectFrom('api_key_policy')
      .select('require_key_groups')
      .where('id', '=', 1)
      .executeTakeFirst();
    this.requireKeyGroups = new Set(row ? (JSON.parse(row.require_key_groups) as string[]) : []);
  }

  /**
   * From the cache alone, without waiting: the key, null (no such key, or not a key's shape), or undefined when only
   * `find` can tell. A public request with a known key takes this path: a hash and a map lookup, no promise.
   */
  cached(secret: string, now = Date.now()): ActiveKey | null | undefined {
    if (secret.length !== SECRET_LENGTH) return null;
    const hit = this.cache.get(hashSecret(secret));
    if (hit) return now - hit.at < CACHE_TTL_MS ? hit.key : undefined;
    // The shape is checked only for a secret not seen lately (a seen one had it): anything else is refused unlooked-up.
    return isSecretShaped(secret) ? undefined : null;
  }

  /**
   * The key whose secret (current, or previous during a rotation's grace) is `secret`, or null: cached, so repeated
   * calls cost a hash and a map lookup. Whether it is still usable (revoked, expired, grace over) is the caller's
   * check at the time of the request (`usable`).
   */
  async find(secret: string, now = Date.now()): Promise<ActiveKey | null> {
    const hit = this.cached(secret, now);
    if (hit !== undefined) return hit;
    const hash = hashSecret(secret);
    const row = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where((eb) => eb.or([eb('secret_hash', '=', hash), eb('old_secret_hash', '=', hash)]))
      .executeTakeFirst();
    const key: ActiveKey | null = row
      ? {
          id: row.id,
          perMinute: row.per_minute === null ? null : Number(row.per_minute),
          perDay: row.per_day === null ? null : Number(row.per_day),
          groups: row.groups === null ? null : new Set(parseList(row.groups)),
          origins: row.origins === null ? null : new Set(parseList(row.origins)),
          addresses: row.addresses === null ? null : addressMatcher(parseList(row.addresses) ?? []),
          expiresAt: epoch(row.expires_at),
          revoked: row.revoked_at !== null,
          graceUntil: row.secret_hash === hash ? null : (epoch(row.grace_until) ?? 0),
        }
      : null;
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(hash, { key, at: now });
    return key;
  }
}

/** Whether a found key may be used at `now`: not revoked, not expired, and (for a rotated-out secret) within grace. */
export const usable = (key: ActiveKey, now = Date.now()) =>
  !key.revoked && (key.expiresAt === null || key.expiresAt > now) && (key.graceUntil === null || key.graceUntil > now);
