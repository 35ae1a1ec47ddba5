import type { FastifyInstance } from 'fastify';

/** Endpoints of the "daily" group; each file registers one route through lookupRoute. */
export default async function dailyGroup(app: FastifyInstance) {
  void app;
}
