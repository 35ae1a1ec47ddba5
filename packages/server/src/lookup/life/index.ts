import type { FastifyInstance } from 'fastify';

/** Endpoints of the "life" group; each file registers one route through lookupRoute. */
export default async function lifeGroup(app: FastifyInstance) {
  void app;
}
