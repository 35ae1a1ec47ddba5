import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { MENUS } from '../catalogue.js';

const Query = Type.Object({
  from: Type.Optional(
    Type.String({
      pattern: '^\\d{4}-\\d{2}-\\d{2}$',
      description: 'First day (YYYY-MM-DD, Asia/Shanghai), default 30 days ago',
    }),
  ),
  to: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'Last day, inclusive' })),
  endpoint: Type.Optional(Type.String({ maxLength: 100, description: 'Route path, e.g. /api/almanac' })),
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

/** Public API usage per endpoint and day, for the admin dashboard. */
const usageRoutes: FastifyPluginAsyncTypebox = async (app) => {
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
      const from = q.from ?? new Date(Date.now() - 30 * 86400_000).toISOString().slice(0, 10);
      return { data: { items: await app.usage.report({ from, to: q.to, endpoint: q.endpoint }) } };
    },
  );
};

export default usageRoutes;
