import fp from 'fastify-plugin';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { DurationHistogram, REQUEST_DURATION_BUCKETS, type DurationSeries } from './duration-metric.js';
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
    // Counted in arrays of its own and formatted by prom-client's registry (monitor/duration-metric.ts).
    const duration = new DurationHistogram({
      name: 'tianji_http_request_duration_seconds',
      help: 'HTTP request duration by route and status',
      buckets: REQUEST_DURATION_BUCKETS,
    });
    registry.registerMetric(duration.metric());

    // One series per label set, looked up by one string.
    const series = new Map<string, DurationSeries>();
    // Callback style (not async): this runs on every response, and a promise per request is measurable.
    app.addHook('onResponse', (req, reply, done) => {
      // Fastify builds a new routeOptions object on every read: read it once.
      const { url: route, config } = req.routeOptions;
      // Unknown paths are not labelled, so they cannot blow up label cardinality.
      if (route) {
        const ms = reply.elapsedTime;
        const key = `${req.method} ${reply.statusCode} ${route}`;
        let s = series.get(key);
        if (!s) series.set(key, (s = duration.series({ method: req.method, route, status: String(reply.statusCode) })));
        s.observe(ms / 1000);
        if (config?.area === 'lookup' || config?.countsUsage) usage.record(route, ms, reply.statusCode >= 400);
      }
      done();
    });

    app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
      return reply.type(registry.contentType).send(await registry.metrics());
    });
  },
  { name: 'monitor' },
);
