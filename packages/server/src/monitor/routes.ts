import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { MENUS } from '../catalogue/index.js';

const Query = Type.Object({
  from: Type.Optional(
    Type.String({
      pattern: '^\\d{4}-\\d{2}-\\d{2}$',
      description: 'First day (YYYY-MM-DD, Asia/Shanghai), default 30 days ago',
    }),
  ),
  to: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'Last day, inclusive' })),
  endpoint: Type.Optional(Type.String({ maxLength: 100, description: 'Route path, e.g. /api/almanac' })),
  apiKey: Type.Optional(
    Type.String({
      format: 'uuid',
      description: 'Only the calls made with this API key (its id); without it, every caller together',
    }),
  ),
});

const CallersQuery = Type.Object({ from: Query.properties.from, to: Query.properties.to });

/** What a reader who may not list the keys sees instead of a key's name. */
const UNNAMED_KEY = '接口密钥';

const Caller = Type.Object({
  apiKeyId: Type.Union([Type.String(), Type.Null()], { description: 'null: the anonymous callers together' }),
  name: Type.Union([Type.String(), Type.Null()], {
    description: `The key's name; ${UNNAMED_KEY} for a reader who may not list the keys (SEARCH on the key menu)`,
  }),
  prefix: Type.Union([Type.String(), Type.Null()], {
    description:
      'The first 8 characters of the secret after tj_; null for a reader who may not list the keys (SEARCH on the key menu)',
  }),
  requests: Type.Integer(),
  callerErrors: Type.Integer(),
  serverFaults: Type.Integer({ description: 'Failures that are the server’s fault' }),
});

const Row = Type.Object({
  endpoint: Type.String(),
  day: Type.String(),
  requests: Type.Integer(),
  errors: Type.Integer({ description: 'Failed answers (status ≥ 400): callerErrors + serverErrors' }),
  callerErrors: Type.Integer({
    description:
      'Failures the caller caused: a bad or unknown parameter (answered 500 with 参数 … 无效, as the public contract requires), an unknown path, a rate limit (429)',
  }),
  serverErrors: Type.Integer({ description: 'Failures that are the server’s fault' }),
  p50: Type.Number({ description: 'ms' }),
  p90: Type.Number({ description: 'ms' }),
  p99: Type.Number({ description: 'ms' }),
});

export interface UsageRoutesOptions {
  /** Whether the reader may list the API keys: only then does the report by caller name them. */
  readsKeys: (req: FastifyRequest) => boolean;
}

/** Public API usage per endpoint and day, for the admin dashboard. */
const usageRoutes: FastifyPluginAsyncTypebox<UsageRoutesOptions> = async (app, { readsKeys }) => {
  app.get(
    '/',
    {
      config: { auth: { menu: MENUS.usage.code, bits: ['SEARCH'] } },
      schema: {
        tags: ['监控 Monitor'],
        summary: '公共接口每天每个接口的调用量 Public API usage per endpoint and day',
        description:
          'Request count, failures (split into the caller’s and the server’s), and latency percentiles (ms, bucketed to ~12%) per endpoint and day (Asia/Shanghai), including this instance’s not yet flushed counts.',
        querystring: Query,
        response: { 200: Type.Object({ data: Type.Object({ items: Type.Array(Row) }) }) },
      },
    },
    async (req) => {
      const q = req.query;
      return {
        data: { items: await app.usage.report({ from: fromOf(q), to: q.to, endpoint: q.endpoint, apiKey: q.apiKey }) },
      };
    },
  );

  app.get(
    '/callers',
    {
      config: { auth: { menu: MENUS.usage.code, bits: ['SEARCH'] } },
      schema: {
        tags: ['监控 Monitor'],
        summary: '按调用方（接口密钥）统计调用量 Public API usage per caller',
        description: `Totals over the days from–to (Asia/Shanghai) per API key, and one row with apiKeyId null for every anonymous caller together; most requests first. Keys are named (name, prefix) only to a reader who may list them (SEARCH on the key menu); another reader sees ${UNNAMED_KEY} and the counts.`,
        querystring: CallersQuery,
        response: { 200: Type.Object({ data: Type.Object({ items: Type.Array(Caller) }) }) },
      },
    },
    async (req) => {
      const totals = await app.usage.callers({ from: fromOf(req.query), to: req.query.to });
      const named = readsKeys(req);
      const ids = named ? totals.map((t) => t.apiKeyId).filter(Boolean) : [];
      const keys = ids.length
        ? await app.db.kysely.selectFrom('api_keys').select(['id', 'name', 'prefix']).where('id', 'in', ids).execute()
        : [];
      const byId = new Map(keys.map((k) => [k.id, k]));
      const items = totals.map((t) => ({
        apiKeyId: t.apiKeyId || null,
        name: !t.apiKeyId ? null : named ? (byId.get(t.apiKeyId)?.name ?? null) : UNNAMED_KEY,
        prefix: byId.get(t.apiKeyId)?.prefix ?? null,
        requests: t.requests,
        callerErrors: t.callerErrors,
        serverFaults: t.errors - t.callerErrors,
      }));
      return { data: { items } };
    },
  );
};

/** The first day of a report: `from`, or 30 days ago. */
const fromOf = (q: { from?: string }) => q.from ?? new Date(Date.now() - 30 * 86400_000).toISOString().slice(0, 10);

export default usageRoutes;
