/**
 * What the QR code and barcode endpoints share: links to the raw image, data URLs, and the JSON answer built around
 * a cached image.
 *
 * Why not the platform's `cache` option: its memo's byte budget is shared by every route, and images of up to a few
 * hundred KB (and their data URLs) would crowd the other routes' answers out of it. Images, and the JSON answers built
 * around them, go into a byte-bounded LRU of each endpoint's own instead (shared/image-cache.ts); the answers still
 * carry Cache-Control and an ETag, and a matching If-None-Match is answered 304.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagOf, matchesEtag } from '../../../shared/etag.js';
import { Type } from '@sinclair/typebox';
import { RawReply } from '../../platform/lookup-platform.js';
import { publicBaseUrl } from '../../../http/public-url.js';
import { ImageCache, type CachedImage, type ImageBody } from '../../shared/image-cache.js';

/** How long clients and CDNs may keep a generated image or its JSON: the output depends on the query alone. */
export const IMAGE_MAX_AGE = 7 * 86400;

/** Bytes of images each endpoint keeps in memory. */
export const IMAGE_CACHE_BYTES = 16 * 1024 * 1024;

export const newImageCache = () => new ImageCache(IMAGE_CACHE_BYTES, IMAGE_MAX_AGE);

/** The fields every image answer starts with; `imagePath` is the raw-image route, e.g. `/api/qrcode/image`. */
export const imageAnswerFields = (imagePath: string) => ({
  dataUrl: Type.String({ description: 'data:image/png;base64,… or data:image/svg+xml;base64,…' }),
  url: Type.String({
    description: `Absolute URL of the image itself (GET ${imagePath} with the same parameters), for <img src>`,
  }),
  format: Type.String({ examples: ['png'] }),
  contentType: Type.String({ examples: ['image/png'] }),
});

/** `<base>/api<path>?<params>` with the parameters in the given order; undefined values are left out. */
export function embedUrl(
  base: string,
  path: string,
  params: Record<string, string | number | boolean | undefined>,
): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  return `${base}/api${path}?${q.toString()}`;
}

/** `data:<type>;base64,…` of an image body. */
export function dataUrl(contentType: string, body: Buffer | string): string {
  const type = contentType.split(';')[0].trim();
  return `data:${type};base64,${Buffer.from(body).toString('base64')}`;
}

/**
 * The JSON answer of an image endpoint: the image from `cache` (rendered on a miss), the envelope data built around it
 * with the request's public base URL, and HTTP caching. The answer depends on the image and the base URL alone, so it
 * is built, frozen and given its ETag once per pair and kept with the image (counted in the cache's bytes); with the
 * route's `stableData` it is serialised once too. The ETag covers the image and the base URL.
 */
export async function imageJsonReply<T extends ImageBody, D extends object>(
  cache: ImageCache,
  req: FastifyRequest,
  reply: FastifyReply,
  key: string,
  render: () => Promise<T> | T,
  build: (image: T, base: string) => D,
): Promise<D | RawReply> {
  // The cache keeps every field of what was rendered (it spreads the image into its entry), so the entry is a T.
  const image = (await cache.image(key, render)) as CachedImage & T;
  const base = publicBaseUrl(req);
  const answer = cache.derive(key, image, base, () => {
    const data = Object.freeze(build(image, base));
    const etag = etagOf(`${image.etag}\u0000${base}`);
    // The answer's fields (the data URL is most of them) and its serialised envelope, each about the JSON's size.
    return { value: { data, etag }, bytes: 2 * Buffer.byteLength(JSON.stringify(data)) };
  });
  reply.header('cache-control', `public, max-age=${IMAGE_MAX_AGE}`);
  reply.header('etag', answer.etag);
  if (matchesEtag(req.headers['if-none-match'], answer.etag)) {
    reply.code(304);
    return new RawReply('application/json; charset=utf-8', '');
  }
  return answer.data;
}
