import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify';
import { AppError, API_KEY_INVALID_MESSAGE } from '../../errors.js';
import { LOOKUP_GROUPS } from '../../catalogue/lookup-groups.js';
import { routeOf } from '../../http/route-of.js';
import { presentedKey } from './secret.js';
import { usable, type ActiveKey } from './registry.js';
import type { KeyLimits, KeyQuota, QuotaResult } from './quota.js';

const invalid = () => new AppError('API_KEY_INVALID', API_KEY_INVALID_MESSAGE);
const groupName = (g: string) => LOOKUP_GROUPS[g as keyof typeof LOOKUP_GROUPS]?.name.split(' ')[0] ?? g;

/** The per-IP limit of anonymous callers, run by the key step (public/index.ts). */
export interface PerIpLimit {
  /** `@fastify/rate-limit`'s handler (`app.rateLimit()`): counts the request; past the limit, throws its 429. */
  take: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  /** The limiter's key of a request: its address (an IPv6 one by its /64). */
  keyOf: (req: FastifyRequest) => string;
}

/** Bounds the addresses remembered as over their limit: past it, the oldest are forgotten (and looked up again). */
const LIMITED_LIMIT = 10_000;

/**
 * The public API's key step, the one onRequest hook that decides how a caller is counted. Without a key header: the
 * per-IP limit (after one set lookup when the operator requires a key for some groups). With a key this instance
 * knows as usable: its checks (group, origin, address), then its quota, answered in the RateLimit-* headers, never
 * the per-IP limit. Any other key is refused, never served as anonymous, and counted against its address like an
 * anonymous request: past the per-IP limit it is answered 429, and an address known to be past it has its unknown
 * keys refused without a lookup, so a flood of made-up keys costs no query per request. The secret is never logged or
 * echoed: every refusal has a fixed text.
 */
export function apiKeyGate(defaults: KeyLimits, perIp?: PerIpLimit): onRequestHookHandler {
  /** Limiter key → until when (epoch ms) it is over its limit, as its last refusal said. */
  const limited = new Map<string, number>();

  /** A bad key: counted against the address (429 past its limit), else refused as invalid. */
  async function refuse(req: FastifyRequest, reply: FastifyReply): Promise<never> {
    if (perIp) {
      try {
        await perIp.take(req, reply);
      } catch (err) {
        if ((err as AppError).code === 'TOO_MANY_REQUESTS') {
          const key = perIp.keyOf(req);
          limited.delete(key);
          if (limited.size >= LIMITED_LIMIT) limited.delete(limited.keys().next().value!);
          limited.set(key, Date.now() + Number(reply.getHeader('retry-after') ?? 1) * 1000);
        }
        throw err;
      }
    }
    throw invalid();
  }

  /** A key this instance does not know yet. */
  async function unknown(req: FastifyRequest, reply: FastifyReply, secret: string): Promise<void> {
    const app = req.server;
    if (perIp && limited.size > 0) {
      const key = perIp.keyOf(req);
      const until = limited.get(key);
      // Still over: refused with the address's other requests, and not looked up. Counted, so once the window turns
      // over and the limiter lets it through, the key is looked up as any other.
      if (until !== undefined) {
        if (until > Date.now()) await perIp.take(req, reply);
        limited.delete(key);
      }
    }
    const key = await app.apiKeys.find(secret);
    if (!key || !usable(key)) return refuse(req, reply);
    return count(req, reply, key, app.apiKeyQuota, defaults);
  }

  /**
   * A key this instance knows is counted at once, without a promise when counting in memory (a Redis count answers
   * with one); any other waits for its lookup or its count against the address.
   */
  function keyed(req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction, secret: string): void {
    const known = req.server.apiKeys.cached(secret);
    if (!known || !usable(known)) {
      (known === undefined ? unknown(req, reply, secret) : refuse(req, reply)).then(() => done(), done);
      return;
    }
    let counting: void | Promise<void>;
    try {
      counting = count(req, reply, known, req.server.apiKeyQuota, defaults);
    } catch (err) {
      done(err as Error);
      return;
    }
    if (counting) counting.then(() => done(), done);
    else done();
  }

  return function gate(req, reply, done) {
    const secret = presentedKey(req.headers);
    const keys = this.apiKeys;
    if (secret === undefined) {
      // The policy is re-read with the keys' revision: this request does not wait for it, the next ones see it.
      if (!keys.current()) void keys.refresh();
      const required = keys.requireKeyGroups;
      if (required.size > 0) {
        const group = routeOf(req).config.lookupGroup;
        if (group && required.has(group))
          return done(
            new AppError(
              'API_KEY_REQUIRED',
              `「${groupName(group)}」分组的接口需要接口密钥：请在请求头 X-API-Key（或 Authorization: Bearer）中提供`,
            ),
          );
      }
      if (!perIp) return done();
      perIp.take(req, reply).then(() => done(), done);
      return;
    }
    // A keyed request is answered from a view of the keys at most a second old (registry.ts); once read, it is answered
    // from what was read, however long the read took.
    if (!keys.current()) {
      keys.refresh().then(() => keyed(req, reply, done, secret), done);
      return;
    }
    keyed(req, reply, done, secret);
  };
}

/** Admits the request under `key` and counts it against the key's quota (a promise when the count is in Redis). */
function count(
  req: FastifyRequest,
  reply: FastifyReply,
  key: ActiveKey | null,
  quota: KeyQuota,
  defaults: KeyLimits,
): void | Promise<void> {
  const { id, perMinute, perDay } = admit(req, key);
  const q = quota.take(id, { perMinute: perMinute ?? defaults.perMinute, perDay: perDay ?? defaults.perDay });
  if (q instanceof Promise) return q.then((r) => answer(req, reply, id, r));
  answer(req, reply, id, q);
}

/** The key's own checks (valid, group, origin, address): the key, or the refusal thrown. */
function admit(req: FastifyRequest, key: ActiveKey | null): ActiveKey {
  if (!key || !usable(key)) throw invalid();
  if (key.groups) {
    const group = routeOf(req).config.lookupGroup;
    if (group && !key.groups.has(group))
      throw new AppError('API_KEY_NOT_ALLOWED', `该接口密钥不允许调用「${groupName(group)}」分组的接口`);
  }
  if (key.origins) {
    const origin = req.headers.origin;
    if (!origin || !key.origins.has(origin))
      throw new AppError(
        'API_KEY_NOT_ALLOWED',
        origin
          ? `该接口密钥不允许来自网页 ${origin.slice(0, 100)} 的请求`
          : '该接口密钥只允许指定网页调用，本次请求没有来源（Origin）',
      );
  }
  if (key.addresses && !key.addresses.check(req.ip, req.ip.includes(':') ? 'ipv6' : 'ipv4'))
    throw new AppError('API_KEY_NOT_ALLOWED', `该接口密钥不允许来自地址 ${req.ip} 的请求`);
  return key;
}

/** Counts the request under its key and answers the window in the RateLimit headers, or refuses it (429). */
function answer(req: FastifyRequest, reply: FastifyReply, id: string, q: QuotaResult): void {
  req.apiKeyId = id;
  // A key without any limit (both 0) has no window to report.
  if (q.limit === 0) return;
  if (!q.allowed)
    throw new AppError(
      'TOO_MANY_REQUESTS',
      `接口密钥的请求配额已用完：${q.window === 'day' ? '每天（北京时间）' : '每分钟'}最多 ${q.limit} 次，请 ${q.reset} 秒后重试`,
      {
        'ratelimit-limit': String(q.limit),
        'ratelimit-remaining': String(q.remaining),
        'ratelimit-reset': String(q.reset),
        'retry-after': String(q.reset),
      },
    );
  // One header at a time: no object built for an answer that is served (this runs on every keyed request).
  reply.header('ratelimit-limit', q.limit);
  reply.header('ratelimit-remaining', q.remaining);
  reply.header('ratelimit-reset', q.reset);
}
