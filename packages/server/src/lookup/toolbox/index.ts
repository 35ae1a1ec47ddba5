import type { FastifyInstance } from 'fastify';

/** Endpoints of the "toolbox" group; each file registers one route through lookupRoute. */
export default async function toolboxGroup(app: FastifyInstance) {
  void app;
}
