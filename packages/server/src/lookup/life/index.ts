import type { FastifyInstance } from 'fastify';
import bmiRoute from './bmi-route.js';
import dialingCodeRoute from './dialing-code-route.js';
import postcodeRoute from './postcode-route.js';
import almanacRoute from './almanac-route.js';
import holidayRoute from './holiday-route.js';
import licensePlateRoute from './license-plate-route.js';
import solarTermRoute from './solar-term-route.js';
import idCardRoute from './id-card-route.js';
import ipRegionRoute from './ip-region-route.js';

/** Endpoints of the "life" group; each file registers one route through lookupRoute. */
export default async function lifeGroup(app: FastifyInstance) {
  await app.register(idCardRoute);
  await app.register(bmiRoute);
  await app.register(dialingCodeRoute);
  await app.register(postcodeRoute);
  await app.register(almanacRoute);
  await app.register(solarTermRoute);
  await app.register(holidayRoute);
  await app.register(licensePlateRoute);
  await app.register(ipRegionRoute);
}
