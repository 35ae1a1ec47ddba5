import type { FastifyInstance } from 'fastify';
import dailyTextRoutes from './daily-texts.js';

/** Endpoints of the "daily" group; each file registers one route through lookupRoute. */
export default async function dailyGroup(app: FastifyInstance) {
  await app.register(dailyTextRoutes);
}
