import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getHtmlDocument } from '@scalar/core/libs/html-rendering';
import type { FastifyInstance } from 'fastify';
import { compressedFile, sendCompressed } from './compressed-files.js';

/** Scalar's browser bundle, as `@scalar/fastify-api-reference` ships it (resolved only: its plugin is not loaded). */
export function scalarBundlePath(): string {
  const entry = fileURLToPath(import.meta.resolve('@scalar/fastify-api-reference'));
  return path.join(path.dirname(entry), 'js', 'standalone.js');
}

/**
 * The API reference page (Scalar) at `<prefix>/`, reading the OpenAPI document at `specUrl`. Served here rather
 * than by `@scalar/fastify-api-reference`'s plugin, which held its 3.4 MB bundle as a 6.7 MB string from start-up
 * (importing it added ~10 MB of heap and ~20 MB of RSS to every process), sent that string uncompressed with no
 * validator on every visit, answered `<prefix>/openapi.json` with a 500 and `<prefix>/openapi.yaml` with an empty
 * body when the document comes from a URL, and titled the page "Scalar API Reference". The page is the one the
 * plugin built (`@scalar/core`'s `getHtmlDocument`, the same pinned version the plugin uses).
 *
 * The bundle is served from a content-addressed path (`<prefix>/js/scalar.<hash>.js`, immutable for a year: a new
 * Scalar version is a new path), brotli- or gzip-compressed as the client accepts (each compressed once, at its first
 * request, off the event loop), with an ETag that answers 304: a fetch (server and client in one process) costs ~2 ms
 * of CPU instead of ~15, and sends 0.83 MB instead of 3.4. The old fixed path redirects to it (302).
 */
export function registerApiReference(
  app: FastifyInstance,
  opts: { prefix: string; specUrl: string; title: string; file?: string },
): { script: string } {
  const { prefix } = opts;
  const bundle = compressedFile(opts.file ?? scalarBundlePath());
  const script = `js/scalar.${bundle.hash}.js`;
  // Typed loosely on purpose: @scalar/core's types predate `showToolbar`, which the pinned bundle reads.
  const options = {
    cdn: script,
    pageTitle: opts.title,
    url: opts.specUrl,
    // Scalar would fetch 14 font files from its own host, which the CSP blocks and the rule "the reference page
    // loads nothing from outside" forbids: system fonts instead.
    withDefaultFonts: false,
    // Nothing that needs another host: no "Open API Client" (it opened Scalar's site with our URL), no toolbar with
    // "Share" and "Generate SDKs", no developer tools, no telemetry. "Test request" stays: it calls this server.
    hideClientButton: true,
    showToolbar: 'never' as const,
    showDeveloperTools: 'never' as const,
    telemetry: false,
  };
  const page = getHtmlDocument(options);
  const hide = { schema: { hide: true } };

  // One route for `<prefix>` and `<prefix>/` (the app ignores trailing slashes): the page's relative links need the slash.
  app.get(`${prefix}/`, hide, (req, reply) => {
    if (!req.url.split('?')[0].endsWith('/')) return reply.redirect(`${prefix}/`, 301);
    // no-cache: a deploy with a new Scalar version must reach the page (the bundle's path changes with it).
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(page);
  });
  // Temporary (302): the target moves with every Scalar release, and a cached permanent redirect would not.
  app.get(`${prefix}/js/scalar.js`, hide, (_req, reply) => reply.redirect(`${prefix}/${script}`, 302));
  app.get(`${prefix}/${script}`, hide, (req, reply) =>
    sendCompressed(req, reply, bundle, {
      type: 'application/javascript; charset=utf-8',
      cacheControl: 'public, max-age=31536000, immutable',
    }),
  );
  return { script };
}
