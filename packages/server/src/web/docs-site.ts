import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { allowInlineScriptsByHash } from './csp-hashes.js';
import { compressedFile, sendCompressed } from './compressed-files.js';

/** docs/.vitepress/dist (npm run build), from src/web (tsx) and from dist/web (built) alike. */
export const DOCS_DIST = fileURLToPath(new URL('../../../../docs/.vitepress/dist/', import.meta.url));

const TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
};

/** Every file of the built site, by its path under /docs/ ("guide/permissions.html"), listed once at start-up. */
function listSite(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile()) out.set(path.relative(root, full).split(path.sep).join('/'), full);
    }
  };
  walk(root);
  return out;
}

const notBuilt = `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>tianji 文档</title></head>
<body style="font-family:sans-serif;max-width:40em;margin:4em auto;line-height:1.6">
<h1>文档尚未构建 · The documentation site is not built</h1>
<p>Run <code>npm run build</code> (or simply <code>npm start</code>, which builds first) and reload this page.</p>
<p>The API reference works without it: <a href="/docs/api/">/docs/api/</a>.</p></body></html>`;

/**
 * The documentation site (VitePress, built from docs/) at /docs/; the API reference is beside it at /docs/api/
 * (web/api-reference.ts, registered by the OpenAPI plugin: its routes are more specific and win).
 *
 * Pages are sent as text, revalidated on every visit, with their two small inline scripts (VitePress's dark-mode and
 * platform checks) allowed by hash; hashed assets are compressed once per process, cached for a year and
 * revalidated by ETag. An unknown path gets the site's own 404 page. Encapsulated: the CSP hook stays on /docs/.
 */
export default async function docsSite(app: FastifyInstance, opts: { root?: string }) {
  const root = opts.root ?? DOCS_DIST;
  const hide = { schema: { hide: true } };
  app.addHook('onSend', allowInlineScriptsByHash());
  if (!fs.existsSync(path.join(root, 'index.html'))) {
    app.log.warn(`/docs/ site not built (${root} has no index.html): run npm run build`);
    const send = (_req: unknown, reply: FastifyReply) =>
      reply.code(503).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(notBuilt);
    app.get('/docs/', hide, send);
    app.get('/docs/*', hide, send);
    return;
  }
  const site = listSite(root);
  // Pages are small and few: read once, at their first request.
  const pages = new Map<string, string>();
  const page = (file: string) => {
    let html = pages.get(file);
    if (html === undefined) pages.set(file, (html = fs.readFileSync(file, 'utf8')));
    return html;
  };
  const sendPage = (reply: FastifyReply, file: string, status = 200) =>
    reply.code(status).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(page(file));

  const serve = (req: FastifyRequest, reply: FastifyReply) => {
    const url = req.url.split('?')[0];
    if (url === '/docs') return reply.redirect('/docs/', 301);
    let rel: string;
    try {
      rel = decodeURIComponent(url.slice('/docs/'.length));
    } catch {
      rel = '';
    }
    if (rel === '' || rel.endsWith('/')) rel += 'index.html';
    // Extension-less page addresses (a link typed by hand, or VitePress's clean URLs) find their .html file.
    const file = site.get(rel) ?? site.get(`${rel}.html`);
    if (!file) return sendPage(reply, site.get('404.html') ?? site.get('index.html')!, 404);
    if (file.endsWith('.html')) return sendPage(reply, file);
    return sendCompressed(req, reply, compressedFile(file), {
      type: TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
      // Everything under assets/ is named by its content; the rest (if any) is revalidated.
      cacheControl: rel.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
  };
  app.get('/docs/', hide, serve);
  app.get('/docs/*', hide, serve);
}
