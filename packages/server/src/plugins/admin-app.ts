import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

/** apps/admin/dist, from src/plugins (tsx) and from dist/plugins (built) alike: both sit four levels down. */
export const ADMIN_DIST = fileURLToPath(new URL('../../../../apps/admin/dist/', import.meta.url));

const NOT_BUILT = `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>tianji admin</title></head>
<body style="font-family:sans-serif;max-width:40em;margin:4em auto;line-height:1.6">
<h1>管理后台尚未构建 · The admin app is not built</h1>
<p>Run <code>npm run build</code> (or simply <code>npm start</code>, which builds first) and reload this page.</p>
<p>The API works without it: <a href="/docs">/docs</a>.</p></body></html>`;

/**
 * Serves the admin web app (apps/admin, a Vite build) at /admin and redirects / there. Hashed assets are cached
 * for a year; index.html is never cached, and every other /admin/* path gets it too, so the client-side router
 * can open any page by its URL. Encapsulated (no fastify-plugin): reply.sendFile stays private to these routes.
 */
export default async function adminApp(app: FastifyInstance, opts: { root?: string }) {
  const root = opts.root ?? ADMIN_DIST;
  const hide = { schema: { hide: true } };
  app.get('/', hide, (_req, reply) => reply.redirect('/admin/'));

  if (!fs.existsSync(path.join(root, 'index.html'))) {
    app.log.warn(`admin app not built (${root} has no index.html): run npm run build`);
    const notBuilt = (_req: unknown, reply: import('fastify').FastifyReply) =>
      reply.code(503).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(NOT_BUILT);
    app.get('/admin/', hide, notBuilt);
    app.get('/admin/*', hide, notBuilt);
    return;
  }

  await app.register(fastifyStatic, {
    root,
    prefix: '/admin/',
    // One route per built file (the build is fixed while the server runs); the SPA fallback below takes the rest.
    wildcard: false,
    index: false,
    schemaHide: true,
    // The build writes .br and .gz beside each asset (apps/admin/scripts/compress.mjs).
    preCompressed: true,
    setHeaders: (reply, file) => {
      reply.header(
        'cache-control',
        file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  const spa = (_req: unknown, reply: import('fastify').FastifyReply) =>
    reply.header('cache-control', 'no-cache').sendFile('index.html');
  app.get('/admin/', hide, spa);
  app.get('/admin/*', hide, (req, reply) => {
    // A missing hashed asset is a real 404 (an old tab after a deploy), not the app's page.
    if (req.url.startsWith('/admin/assets/')) return reply.code(404).type('text/plain').send('Not Found');
    return spa(req, reply);
  });
}
