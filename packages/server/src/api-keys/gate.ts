import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { AppError, API_KEY_INVALID_MESSAGE } from '../errors.js';
import { LOOKUP_GROUPS } from '../plugins/lookup-platform.js';
import { routeOf } from '../plugins/route-of.js';
import { presentedKey } from './secret.js';
import { usable, type ActiveKey } from './registry.js';
import type { KeyLimits, KeyQuota, QuotaResult } from './quota.js';

const invalid = () => new AppError('API_KEY_INVALID', API_KEY_INVALID_MESSAGE);
const groupName = (g: string) => LOOKUP_GROUPS[g as keyof typeof LOOKUP_GROUPS]?.name.split(' ')[0] ?? g;

/** The per-IP limit of anonymous callers: `@fastify/rate-limit`'s handler (`app.rateLimit()`), run by the key step. */
export type PerIpLimit = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * The public API's key step, the one onRequest hook that decides how a caller is counted. Without a key header: the
 * per-IP limit (after one set lookup when the operator requires a key for some groups). With one: the cached key, its
 * checks (valid, group, origin, address), then its quota, answered in the RateLimit-* headers. A key that fails is
 * refused, never treated as anonymous. The secret is never logged or echoed: every refusal has a fixed text.
 */
export function apiKeyGate(defaults: KeyLimits, perIp?: PerIpLimit): onRequestHookHandler {
  return function gate(req, reply, done) {
    const secret = presentedKey(req.headers);
    if (secret === undefined) {
      const required = this.apiKeys.requireKeyGroups;
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
      perIp(req, reply).then(() => done(), done);
      return;
    }
    // A key this instance knows is counted at once, without a promise when counting in memory (a Redis count answers
    // with one); an unknown one waits for its lookup.
    const known = this.apiKeys.cached(secret);
    if (known === undefined) {
      this.apiKeys
        .find(secret)
        .then((key) => count(req, reply, key, this.apiKeyQuota, defaults))
        .then(() => done(), done);
      return;
    }
    let counting: void | Promise<void>;
    try {
      counting = count(req, reply, known, this.apiKeyQuota, defaults);
    } catch (err) {
      return done(err as Error);
    }
    if (counting) counting.then(() => done(), done);
    else done();
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
