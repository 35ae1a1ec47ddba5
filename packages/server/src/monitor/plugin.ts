import fp from 'fastify-plugin';
import { Registry, Histogram, collectDefaultMetrics } from 'prom-client';
import { UsageRecorder } from './usage.js';

declare module 'fastify' {
  interface FastifyInstance {
    usage: UsageRecorder;
  }
}

/**
 * Request metrics for every route (Prometheus, at /metrics) and the per-endpoint, per-day usage of the public API
 * (in memory, flushed every USAGE_FLUSH_INTERVAL). One hook feeds both.
 */
export default fp(
  async (app) => {
    const usage = new UsageRecorder(app.db.kysely, app.db.dialect, app.log);
    usage.start(app.config.usageFlushMs);
    app.decorate('usage', usage);
    app.addHook('onClose', () => usage.stop());

    const registry = new Registry();
    collectDefaultMetrics({ register: registry, prefix: 'tianji_' });
    const duration = new Histogram({
      name: 'tianji_http_request_duration_seconds',
      help: 'HTTP request duration by route and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    });

    // Children per label set, looked up by one string: cheaper than prom-client hashing a label object per request.
    const children = new Map<string, ReturnType<typeof duration.labels>>();
    // Callback style (not async): this runs on every response, and a promise per request is measurable.
    app.addHook('onResponse', (req, reply, done) => {
      // Fastify builds a new routeOptions object on every read: read it once.
      const { url: route, config } = req.routeOptions;
      // Unknown paths are not labelled, so they cannot blow up label cardinality.
      if (route) {
        const ms = reply.elapsedTime;
        const key = `${req.method} ${reply.statusCode} ${route}`;
        let child = children.get(key);
        if (!child) children.set(key, (child = duration.labels(req.method, route, String(reply.statusCode))));
        child.observe(ms / 1000);
        if (config?.area === 'lookup') usage.record(route, ms, reply.statusCode >= 400);
      }
      done();
    });

    app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
      return reply.type(registry.contentType).send(await registry.metrics());
    });
  },
  { name: 'monitor' },
);
