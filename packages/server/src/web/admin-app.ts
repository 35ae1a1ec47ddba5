import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';

/** apps/admin/dist, from src/web (tsx) and from dist/web (built) alike: both sit four levels down. */
export const ADMIN_DIST = fileURLToPath(new URL('../../../../apps/admin/dist/', import.meta.url));

const notBuiltPage = (title: string, what: string, prefix: string) =>
  `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${title}</title></head>
<body style="font-family:sans-serif;max-width:40em;margin:4em auto;line-height:1.6">
<h1>${what}尚未构建 · The app at ${prefix} is not built</h1>
<p>Run <code>npm run build</code> (or simply <code>npm start</code>, which builds first) and reload this page.</p>
<p>The API works without it: <a href="/docs">/docs</a>.</p></body></html>`;

/**
 * Serves a built single-page app (a Vite build) at `prefix`. Hashed assets are cached for a year; every other
 * file (index.html, the service worker, the manifest) is revalidated, and every other `prefix*` path gets
 * index.html too, so the client-side router can open any page by its URL. Not built: a 503 page that says how.
 */
export async function serveBuiltApp(
  app: FastifyInstance,
  opts: { root: string; prefix: string; title: string; what: string },
) {
  const { root, prefix } = opts;
  const hide = { schema: { hide: true } };
  if (!fs.existsSync(path.join(root, 'index.html'))) {
    app.log.warn(`${prefix} app not built (${root} has no index.html): run npm run build`);
    const page = notBuiltPage(opts.title, opts.what, prefix);
    const notBuilt = (_req: unknown, reply: FastifyReply) =>
      reply.code(503).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page);
    app.get(prefix, hide, notBuilt);
    app.get(`${prefix}*`, hide, notBuilt);
    return;
  }

  await app.register(fastifyStatic, {
    root,
    prefix,
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
  const spa = (_req: unknown, reply: FastifyReply) =>
    reply.header('cache-control', 'no-cache').sendFile('index.html', root);
  app.get(prefix, hide, spa);
  app.get(`${prefix}*`, hide, (req, reply) => {
    // A missing hashed asset is a real 404 (an old tab after a deploy), not the app's page.
    if (req.url.startsWith(`${prefix}assets/`)) return reply.code(404).type('text/plain').send('Not Found');
    return spa(req, reply);
  });
}

/**
 * Serves the admin web app (apps/admin) at /admin and redirects / there. Encapsulated (no fastify-plugin):
 * reply.sendFile stays private to these routes.
 */
export default async function adminApp(app: FastifyInstance, opts: { root?: string }) {
  app.get('/', { schema: { hide: true } }, (_req, reply) => reply.redirect('/admin/'));
  app.get('/device', { schema: { hide: true } }, (req, reply) => reply.redirect(deviceApprovalPath(req)));
  await serveBuiltApp(app, {
    root: opts.root ?? ADMIN_DIST,
    prefix: '/admin/',
    title: 'tianji admin',
    what: '管理后台',
  });
}

/** A phone or tablet browser (the phone app is the one made for it). */
const HANDHELD = /Mobile|Android|iPhone|iPad|HarmonyOS/i;

/**
 * Where `tianji login --web`'s short link (`/device`, the verificationUri of POST /api/auth/device/code) leads: the
 * approval page of the phone app on a phone, of the desktop app elsewhere, with the code the link carried (letters
 * and a dash only, so nothing else rides along into the page's address).
 */
export function deviceApprovalPath(req: FastifyRequest): string {
  const raw = (req.query as { code?: unknown } | undefined)?.code;
  const code = typeof raw === 'string' && /^[A-Za-z-]{1,16}$/.test(raw) ? raw : '';
  const app = HANDHELD.test(String(req.headers['user-agent'] ?? '')) ? '/m/device' : '/admin/device';
  return code ? `${app}?code=${encodeURIComponent(code)}` : app;
}
