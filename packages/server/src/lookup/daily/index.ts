import type { FastifyInstance } from 'fastify';
import dailyTextRoutes from './daily-texts.js';
import poemGameRoute from './poem-game-route.js';
import poemRoute from './poem-route.js';
import wallpaperRoutes from './wallpaper-route.js';
import hitokotoRoute from './hitokoto-route.js';

/** Endpoints of the "daily" group; each file registers one route through lookupRoute. */
export default async function dailyGroup(app: FastifyInstance) {
  await app.register(hitokotoRoute);
  await app.register(dailyTextRoutes);
  await app.register(poemRoute);
  await app.register(poemGameRoute);
  await app.register(wallpaperRoutes);
}
