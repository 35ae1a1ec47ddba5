import type { FastifyInstance } from 'fastify';

/**
 * Liveness (the process answers) and readiness (the database answers). Redis is not required for readiness: without
 * it the service keeps answering, with public rate limits counted per instance and content changes reaching the
 * other instances only when it returns, and the details say so.
 */
export default async function healthRoutes(app: FastifyInstance) {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    const redis = app.redis ? (app.redis.status === 'ready' ? 'ready' : 'unavailable') : undefined;
    const details = redis && { redis, rateLimit: redis === 'ready' ? 'shared' : 'per-instance' };
    try {
      await app.db.ping();
      return { status: 'ready', database: app.db.dialect, ...details };
    } catch (err) {
      app.log.warn({ err }, 'readiness check failed');
      return reply.code(503).send({ status: 'unavailable', reason: (err as Error).message.slice(0, 200), ...details });
    }
  });
}
