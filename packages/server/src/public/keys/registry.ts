import { randomUUID } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { subscribeChannel } from '../../http/redis-subscriber.js';
import { hashSecret, isSecretShaped, SECRET_LENGTH } from './secret.js';

const CHANNEL = 'tianji:api-keys-changed';
/**
 * How old this instance's view of the keys may be when it answers a keyed request: older, it first reads the keys'
 * revision again (one row, with the policy). A revoked key is so refused on every instance within about a second
 * without Redis; with Redis, a change is announced at once as well.
 */
const REVISION_CHECK_MS = 1_000;
/** Bounds the cache of keys found: only real secrets enter it. */
const KEY_LIMIT = 20_000;
/** A secret no key has is remembered this long, so asking again costs no query. */
const MISS_TTL_MS = 10_000;
/** Bounds the cache of misses: random secrets (a scan) push out the oldest, never the keys found. */
const MISS_LIMIT = 10_000;
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
 * the require-a-key policy. What is cached holds while the keys' revision (api_key_policy.revision, bumped by the
 * database at every change, migration 0019) is unchanged: a keyed request is answered from a view whose revision was
 * read within the last second (`current`, `refresh`). A change made here, or announced through Redis, clears the
 * cache at once.
 */
export class ApiKeyRegistry {
  private readonly keys = new Map<string, ActiveKey>();
  /** Hashes of secrets no key has, with when they were looked up. */
  private readonly misses = new Map<string, number>();
  private revision: number | undefined;
  /** When the revision last read was asked for: the view is at least that recent. */
  private checkedAt = Number.NEGATIVE_INFINITY;
  private checking?: Promise<void>;
  /** Bumped whenever the cache is emptied: a lookup that started before must not refill it with what it read. */
  private generation = 0;
  private unreachable = false;
  private readonly instanceId = randomUUID();
  private subscription?: { close(): void };
  /** Public endpoint groups an anonymous caller may not call. */
  requireKeyGroups: ReadonlySet<string> = new Set();
  /** Key lookups that went to the database since start (a flood of unknown keys must not raise it per request). */
  lookups = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
    private readonly redis?: Redis,
  ) {}

  async init(): Promise<void> {
    await this.refresh();
    if (!this.redis) return;
    this.subscription = await subscribeChannel(this.redis, CHANNEL, this.log, {
      onMessage: (message) => {
        if (message !== this.instanceId) void this.forget();
      },
      // Changes announced while Redis was unreachable never arrive (the revision check still sees them).
      onReconnect: () => void this.forget(),
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

  private async forget(): Promise<void> {
    this.clear();
    this.checkedAt = Number.NEGATIVE_INFINITY;
    // A read already under way may have begun before the change: the policy is read once more after it.
    await this.checking;
    await this.refresh();
  }

  private clear(): void {
    this.keys.clear();
    this.misses.clear();
    this.generation++;
  }

  /** Whether the cached view may answer now: its revision was read within the last second. */
  current(now = Date.now()): boolean {
    return now - this.checkedAt < REVISION_CHECK_MS;
  }

  /**
   * Reads the revision and the policy (one row) and empties the cache if the revision moved; one read at a time. While
   * the database cannot be reached, what is cached keeps answering (and the read is tried again a second later).
   */
  refresh(): Promise<void> {
    this.checking ??= this.readRevision().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  private async readRevision(): Promise<void> {
    const asked = Date.now();
    try {
      const row = await this.db
        .selectFrom('api_key_policy')
        .select(['require_key_groups', 'revision'])
        .where('id', '=', 1)
        .executeTakeFirst();
      const revision = row ? Number(row.revision) : 0;
      if (revision !== this.revision) {
        this.clear();
        this.revision = revision;
      }
      this.requireKeyGroups = new Set(row ? (JSON.parse(row.require_key_groups) as string[]) : []);
      if (this.unreachable) this.log.info('api key revision readable again');
      this.unreachable = false;
    } catch (err) {
      if (!this.unreachable) this.log.error({ err }, 'api key revision read failed: answering from the cached keys');
      this.unreachable = true;
    }
    this.checkedAt = asked;
  }

  /**
   * From the cache alone, without waiting: the key, null (no such key, or not a key's shape), or undefined when only
   * `find` can tell. A public request with a known key takes this path (after `current`): a hash and a map lookup.
   */
  cached(secret: string, now = Date.now()): ActiveKey | null | undefined {
    if (secret.length !== SECRET_LENGTH) return null;
    const hash = hashSecret(secret);
    const key = this.keys.get(hash);
    if (key) return key;
    const missed = this.misses.get(hash);
    if (missed !== undefined && now - missed < MISS_TTL_MS) return null;
    // The shape is checked only for a secret not seen lately (a seen one had it): anything else is refused unlooked-up.
    return isSecretShaped(secret) ? undefined : null;
  }

  /**
   * The key whose secret (current, or previous during a rotation's grace) is `secret`, or null: cached, so repeated
   * calls cost a hash and a map lookup. Whether it is still usable (revoked, expired, grace over) is the caller's
   * check at the time of the request (`usable`).
   */
  async find(secret: string, now = Date.now()): Promise<ActiveKey | null> {
    if (!this.current(now)) await this.refresh();
    const hit = this.cached(secret, now);
    if (hit !== undefined) return hit;
    const hash = hashSecret(secret);
    const generation = this.generation;
    this.lookups++;
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
    // Read before a change emptied the cache: answer with it, but do not keep it.
    if (generation !== this.generation) return key;
    if (key) {
      if (this.keys.size >= KEY_LIMIT) this.keys.clear();
      this.keys.set(hash, key);
    } else {
      // The oldest miss goes first (a Map iterates in insertion order).
      if (this.misses.size >= MISS_LIMIT) this.misses.delete(this.misses.keys().next().value!);
      this.misses.delete(hash);
      this.misses.set(hash, now);
    }
    return key;
  }
}

/** Whether a found key may be used at `now`: not revoked, not expired, and (for a rotated-out secret) within grace. */
export const usable = (key: ActiveKey, now = Date.now()) =>
  !key.revoked && (key.expiresAt === null || key.expiresAt > now) && (key.graceUntil === null || key.graceUntil > now);
