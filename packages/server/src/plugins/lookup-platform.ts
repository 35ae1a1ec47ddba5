import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import { EnvelopeSchema, ok } from './envelope.js';

/** The five groups of the public API; each is an OpenAPI tag. */
export const LOOKUP_GROUPS = {
  daily: { name: '每日推荐 Daily', description: 'The same answer for everyone on a given day (Asia/Shanghai)' },
  random: { name: '随机生成 Random', description: 'Random data; pass `seed` for reproducible output' },
  mood: { name: '心情语录 Mood quotes', description: 'Quote generators in five styles' },
  life: { name: '生活服务 Life services', description: 'Lookups and calculators for everyday life' },
  toolbox: { name: '工具箱 Toolbox', description: 'Images and colour tools' },
} as const;

export type LookupGroup = keyof typeof LOOKUP_GROUPS;

/**
 * A reply that is not the JSON envelope (plain text, a script, an image). Handlers return it when the
 * caller asked for a raw format; the platform sends it as is, with the same CORS and caching rules.
 */
export class RawReply {
  constructor(
    readonly contentType: string,
    readonly body: string | Buffer,
  ) {}
}

export interface LookupCache<Q> {
  /** Seconds a client or CDN may keep the answer. */
  maxAge: number;
  /** Extra cache key for answers that also depend on something outside the query (e.g. today's date). */
  vary?: (query: Q) => string;
}

export interface LookupRouteDef<Q extends TObject, D extends TSchema> {
  group: LookupGroup;
  path: string;
  summary: string;
  description?: string;
  query: Q;
  data: D;
  /** Deterministic answers: memoised per query, sent with Cache-Control and ETag, and 304 on If-None-Match. */
  cache?: LookupCache<Static<Q>>;
  /** Bypass the memo when the query asks for randomness (e.g. `random=true`). */
  handler: (query: Static<Q>, req: FastifyRequest, reply: FastifyReply) => Static<D> | RawReply | Promise<Static<D> | RawReply>;
}

interface Memo {
  data: unknown;
  etag: string;
  raw?: RawReply;
}

const MEMO_LIMIT = 2000;

/**
 * Registers one public GET endpoint: query and data schemas (validated, serialised fast, documented), the
 * envelope, caching, and the public area's error rendering. Every Area B route goes through here.
 */
export function lookupRoute<Q extends TObject, D extends TSchema>(app: FastifyInstance, def: LookupRouteDef<Q, D>): void {
  const memo = new Map<string, Memo>();
  const tag = LOOKUP_GROUPS[def.group].name;

  app.route({
    method: 'GET',
    url: def.path,
    config: { area: 'lookup', lookupGroup: def.group },
    schema: {
      tags: [tag],
      summary: def.summary,
      description: def.description,
      querystring: def.query,
      response: {
        200: EnvelopeSchema(def.data),
        '4xx': { $ref: 'LookupError#' },
        '5xx': { $ref: 'LookupError#' },
      },
    },
    handler: async (req, reply) => {
      const query = req.query as Static<Q>;
      if (!def.cache) {
        const result = await def.handler(query, req, reply);
        if (result instanceof RawReply) return reply.type(result.contentType).send(result.body);
        return ok(result);
      }
      const key = cacheKey(req.url, def.cache.vary?.(query));
      let hit = memo.get(key);
      if (!hit) {
        const result = await def.handler(query, req, reply);
        hit =
          result instanceof RawReply
            ? { data: null, raw: result, etag: etagOf(result.body) }
            : { data: result, etag: etagOf(JSON.stringify(result)) };
        if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value as string);
        memo.set(key, hit);
      }
      reply.header('cache-control', `public, max-age=${def.cache.maxAge}`);
      reply.header('etag', hit.etag);
      if (req.headers['if-none-match'] === hit.etag) return reply.code(304).send();
      if (hit.raw) return reply.type(hit.raw.contentType).send(hit.raw.body);
      return ok(hit.data);
    },
  });
}

/** Canonical key: query parameters sorted, so `?a=1&b=2` and `?b=2&a=1` share an entry. */
function cacheKey(url: string, extra?: string): string {
  const [p, q = ''] = url.split('?');
  const params = new URLSearchParams(q);
  params.sort();
  return `${p}?${params.toString()}#${extra ?? ''}`;
}

function etagOf(body: string | Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
}

/** Today's date in Asia/Shanghai as YYYY-MM-DD: "daily" answers and holiday distances turn over at Beijing midnight. */
export function todayInShanghai(now: Date = new Date()): string {
  return new Date(now.getTime() + 8 * 3600_000).toISOString().slice(0, 10);
}
