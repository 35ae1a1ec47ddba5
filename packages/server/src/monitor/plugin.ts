import fp from 'fastify-plugin';
import { Counter, Registry, collectDefaultMetrics } from 'prom-client';
import { DurationHistogram, REQUEST_DURATION_BUCKETS, type DurationSeries } from './duration-metric.js';
import { UsageRecorder } from './usage.js';
import { RecentRequests } from './recent-requests.js';
import { ProcessSampler } from './process-sampler.js';
import { routeOf } from '../http/route-of.js';

declare module 'fastify' {
  interface FastifyInstance {
    usage: UsageRecorder;
    /** What 服务监控 reads besides the database and Redis: this instance's last minute of answers, and its process. */
    serverMonitor: { requests: RecentRequests; process: ProcessSampler };
  }
}

/**
 * Request metrics for every route (Prometheus, at /metrics) and the per-endpoint, per-day usage of the public API
 * (in memory, flushed every USAGE_FLUSH_INTERVAL), and the last minute's answers for 服务监控. One hook feeds all three.
 */
export default fp(
  async (app) => {
    const usage = new UsageRecorder(app.db.kysely, app.db.dialect, app.log);
    usage.start(app.config.usageFlushMs);
    app.decorate('usage', usage);
    app.addHook('onClose', () => usage.stop());
    const recent = new RecentRequests();
    const sampler = new ProcessSampler();
    sampler.start();
    app.addHook('onClose', async () => sampler.stop());
    app.decorate('serverMonitor', { requests: recent, process: sampler });

    const registry = new Registry();
    collectDefaultMetrics({ register: registry, prefix: 'tianji_' });
    // Counted in arrays of its own and formatted by prom-client's registry (monitor/duration-metric.ts).
    const duration = new DurationHistogram({
      name: 'tianji_http_request_duration_seconds',
      help: 'HTTP request duration by route and status',
      buckets: REQUEST_DURATION_BUCKETS,
    });
    registry.registerMetric(duration.metric());
    const failures = new Counter({
      name: 'tianji_http_request_failures_total',
      help: 'Failed answers by route, status and whose fault: caller (bad or unknown parameter, unknown path, 429) or server',
      labelNames: ['route', 'status', 'fault'],
      registers: [registry],
    });

    // One series per label set: per route (its config object, the same on every request), method and status.
    const series = new WeakMap<object, Map<string, DurationSeries>>();
    // Callback style (not async): this runs on every response, and a promise per request is measurable.
    app.addHook('onResponse', (req, reply, done) => {
      const { url: route, config } = routeOf(req);
      // A public bad parameter is answered 500 by contract but is the caller's fault, as is every status below 500.
      const failure =
        reply.statusCode < 400 ? undefined : reply.statusCode < 500 || req.callerError ? 'caller' : 'server';
      // Unknown paths share one label, so they cannot blow up label cardinality.
      if (failure) failures.inc({ route: route ?? '(unmatched)', status: reply.statusCode, fault: failure });
      recent.record(failure);
      if (route) {
        const ms = reply.elapsedTime;
        let ofRoute = series.get(config);
        if (!ofRoute) series.set(config, (ofRoute = new Map()));
        // Method and status in one small key: a status code is three digits.
        const key = req.method + reply.statusCode;
        let s = ofRoute.get(key);
        if (!s)
          ofRoute.set(key, (s = duration.series({ method: req.method, route, status: String(reply.statusCode) })));
        s.observe(ms / 1000);
        if (config?.area === 'lookup' || config?.countsUsage) usage.record(route, ms, failure, req.apiKeyId);
      }
      done();
    });

    app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
      return reply.type(registry.contentType).send(await registry.metrics());
    });
  },
  { name: 'monitor' },
);
