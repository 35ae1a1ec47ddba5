import type { FastifyInstance } from 'fastify';
import moodQuoteRoute from './mood-quote-route.js';

/** Endpoints of the "mood" group; each file registers one route through lookupRoute. */
export default async function moodGroup(app: FastifyInstance) {
  await app.register(moodQuoteRoute);
}
