import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { serveBuiltApp } from './admin-app.js';

/** apps/mobile/dist, from src/web (tsx) and from dist/web (built) alike. */
export const MOBILE_DIST = fileURLToPath(new URL('../../../../apps/mobile/dist/', import.meta.url));

/**
 * Serves the phone app (apps/mobile, installable: manifest.webmanifest and sw.js at its root) at /m/, with the
 * admin app's rules: hashed assets cached for a year, the rest revalidated, SPA fallback.
 */
export default async function mobileApp(app: FastifyInstance, opts: { root?: string }) {
  await serveBuiltApp(app, { root: opts.root ?? MOBILE_DIST, prefix: '/m/', title: 'tianji mobile', what: '移动版' });
}
