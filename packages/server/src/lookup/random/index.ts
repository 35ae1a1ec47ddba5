import type { FastifyInstance } from 'fastify';
import randomStringRoute from './random-string-route.js';
import randomIdCardRoute from './random-id-card-route.js';
import randomEmojiRoute from './random-emoji-route.js';
import randomAvatarRoute from './random-avatar-route.js';
import randomImageRoute from './random-image-route.js';
import randomPersonRoute from './random-person-route.js';
import randomUserRoute from './random-user-route.js';
import randomColorRoute from './random-color-route.js';

/** Endpoints of the "random" group; each file registers one route through lookupRoute. */
export default async function randomGroup(app: FastifyInstance) {
  await app.register(randomUserRoute);
  await app.register(randomStringRoute);
  await app.register(randomColorRoute);
  await app.register(randomIdCardRoute);
  await app.register(randomEmojiRoute);
  await app.register(randomAvatarRoute);
  await app.register(randomImageRoute);
  await app.register(randomPersonRoute);
}
