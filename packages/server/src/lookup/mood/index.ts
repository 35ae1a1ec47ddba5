import type { FastifyInstance } from 'fastify';

/** Endpoints of the "mood" group; each file registers one route through lookupRoute. */
export default async function moodGroup(app: FastifyInstance) {
  void app;
}
