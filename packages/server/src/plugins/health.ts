import type { FastifyInstance } from 'fastify';

/** Liveness (the process answers) and readiness (the database answers). */
export default async function healthRoutes(app: FastifyInstance) {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    try {
      await app.db.ping();
      if (app.redis && app.redis.status !== 'ready') throw new Error(`redis ${app.redis.status}`);
      return { status: 'ready', database: app.db.dialect };
    } catch (err) {
      app.log.warn({ err }, 'readiness check failed');
      return reply.code(503).send({ status: 'unavailable', reason: (err as Error).message.slice(0, 200) });
    }
  });
}
