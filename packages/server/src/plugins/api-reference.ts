import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import { getHtmlDocument } from '@scalar/core/libs/html-rendering';
import type { FastifyInstance } from 'fastify';
import { matchesEtag } from '../shared/etag.js';

/** Scalar's browser bundle, as `@scalar/fastify-api-reference` ships it (resolved only: its plugin is not loaded). */
export function scalarBundlePath(): string {
  const entry = fileURLToPath(import.meta.resolve('@scalar/fastify-api-reference'));
  return path.join(path.dirname(entry), 'js', 'standalone.js');
}

/** Encodings offered, best first; identity is what a client that accepts neither gets. */
const ENCODINGS: Encoding[] = ['br', 'gzip'];
type Encoding = 'br' | 'gzip';

const compress: Record<Encoding, (b: Buffer) => Promise<Buffer>> = {
  // Quality 9: 3.4 MB → ~0.83 MB in ~0.3 s on the thread pool, once per process (quality 11 takes 5 s for 10 % less).
  br: (b) =>
    promisify(zlib.brotliCompress)(b, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: b.length },
    }),
  gzip: (b) => promisify(zlib.gzip)(b, { level: 9 }),
};

/** A bundle's bytes, content hash and compressed forms: once per file and process (apps built here share them). */
const bundles = new Map<string, ReturnType<typeof readBundle>>();
const bundleOf = (file: string) => {
  let b = bundles.get(file);
  if (!b) bundles.set(file, (b = readBundle(file)));
  return b;
};

function readBundle(file: string) {
  const hash = createHash('sha256').update(fs.readFileSync(file)).digest('hex').slice(0, 16);
  // The bytes are read again at the first request, not kept from start-up: most processes never serve /docs.
  let kept: Buffer | undefined;
  const bytes = () => (kept ??= fs.readFileSync(file));
  const variants = new Map<Encoding, Promise<Buffer>>();
  const variant = (encoding: Encoding) => {
    let v = variants.get(encoding);
    if (!v) {
      v = compress[encoding](bytes());
      variants.set(encoding, v);
      // A failed compression is retried by the next request rather than remembered.
      v.catch(() => variants.delete(encoding));
    }
    return v;
  };
  return { bytes, hash, variant };
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
  const { bytes, hash, variant } = bundleOf(opts.file ?? scalarBundlePath());
  const script = `js/scalar.${hash}.js`;
  const page = getHtmlDocument({
    cdn: script,
    pageTitle: opts.title,
    url: opts.specUrl,
    // Scalar would fetch 14 font files from its own host, which the CSP blocks and the rule "the reference page
    // loads nothing from outside" forbids: system fonts instead.
    withDefaultFonts: false,
  });
  const hide = { schema: { hide: true } };

  // One route for `<prefix>` and `<prefix>/` (the app ignores trailing slashes): the page's relative links need the slash.
  app.get(`${prefix}/`, hide, (req, reply) => {
    if (!req.url.split('?')[0].endsWith('/')) return reply.redirect(`${prefix}/`, 301);
    // no-cache: a deploy with a new Scalar version must reach the page (the bundle's path changes with it).
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(page);
  });
  // Temporary (302): the target moves with every Scalar release, and a cached permanent redirect would not.
  app.get(`${prefix}/js/scalar.js`, hide, (_req, reply) => reply.redirect(`${prefix}/${script}`, 302));
  app.get(`${prefix}/${script}`, hide, async (req, reply) => {
    const encoding = negotiate(req.headers['accept-encoding'] ?? '', ENCODINGS) as Encoding | null;
    const etag = `"${hash}${encoding ? `-${encoding}` : ''}"`;
    reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('vary', 'accept-encoding')
      .header('etag', etag)
      .type('application/javascript; charset=utf-8');
    if (matchesEtag(req.headers['if-none-match'], etag)) return reply.code(304).send();
    if (!encoding) return bytes();
    reply.header('content-encoding', encoding);
    return variant(encoding);
  });
  return { script };
}
