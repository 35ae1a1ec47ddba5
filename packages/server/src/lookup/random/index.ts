import type { FastifyInstance } from 'fastify';

/** Endpoints of the "random" group; each file registers one route through lookupRoute. */
export default async function randomGroup(app: FastifyInstance) {
  void app;
}
