/**
 * Replies for generated images (avatars, random images). A seeded image is deterministic: it is kept in a small LRU
 * bounded by bytes (the platform's per-route memo counts entries, and 2,000 PNGs of up to a few MB each would not
 * fit in memory), sent with a long Cache-Control and an ETag, and a matching If-None-Match is answered 304.
 * An unseeded image is new on every request and marked no-store.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagOf, matchesEtag } from '../../shared/etag.js';
import { heapBytes, RawReply } from '../platform/lookup-platform.js';

export interface ImageBody {
  contentType: string;
  body: string | Buffer;
}

/** An image as the cache holds it. */
export interface CachedImage extends ImageBody {
  etag: string;
  /** Memory it holds: its body and what was derived from it. */
  bytes: number;
  /** Values made once from this image (answers built around it), by name; counted in `bytes`. */
  derived?: Map<string, unknown>;
}

export class ImageCache {
  private readonly entries = new Map<string, CachedImage>();
  /** Renders under way: concurrent requests for the same new image wait for one render instead of queueing many. */
  private readonly pending = new Map<string, Promise<CachedImage>>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    /** Seconds clients may keep a seeded image. */
    private readonly maxAge = 365 * 86400,
  ) {}

  /** Bytes currently held (for tests and metrics). */
  get size(): number {
    return this.bytes;
  }

  get(key: string): CachedImage | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      // Map order is insertion order: re-inserting marks the entry as most recently used.
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, image: ImageBody): CachedImage {
    const bytes = heapBytes(image.body);
    const entry = {
      ...image,
      bytes,
      etag: etagOf(image.body),
    };
    if (bytes > this.maxBytes / 4) return entry; // one huge image must not flush everything else
    const old = this.entries.get(key);
    if (old) this.bytes -= old.bytes;
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.bytes += bytes;
    this.evict();
    return entry;
  }

  /**
   * A value made once from the image cached under `key` (e.g. the JSON answer built around it for one base URL) and
   * kept with it: `make` says what it holds in memory, which counts in the cache's bytes until the image is evicted. An
   * image the cache does not hold (too large to keep) gets a fresh value every time.
   */
  derive<V>(key: string, image: CachedImage, name: string, make: () => { value: V; bytes: number }): V {
    const kept = image.derived?.get(name);
    if (kept !== undefined) return kept as V;
    const { value, bytes } = make();
    if (this.entries.get(key) !== image) return value;
    (image.derived ??= new Map()).set(name, value);
    image.bytes += bytes;
    this.bytes += bytes;
    this.evict();
    return value;
  }

  /** Drops the least recently used images until the cache is within its budget. */
  private evict(): void {
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.bytes;
    }
  }

  /**
   * The reply for one image request. `key` identifies a deterministic image (every parameter that shapes it,
   * canonical); `undefined` means unseeded, rendered afresh and never cached.
   */
  async reply(
    req: FastifyRequest,
    reply: FastifyReply,
    key: string | undefined,
    render: () => Promise<ImageBody> | ImageBody,
  ): Promise<RawReply> {
    if (key === undefined) {
      const image = await render();
      reply.header('cache-control', 'no-store');
      return new RawReply(image.contentType, image.body);
    }
    const entry = await this.image(key, render);
    reply.header('cache-control', `public, max-age=${this.maxAge}, immutable`);
    reply.header('etag', entry.etag);
    if (matchesEtag(req.headers['if-none-match'], entry.etag)) {
      reply.code(304);
      return new RawReply(entry.contentType, '');
    }
    return new RawReply(entry.contentType, entry.body);
  }

  /** The image cached under `key`, rendered on a miss (one render for concurrent requests: `pending`). */
  image(key: string, render: () => Promise<ImageBody> | ImageBody): CachedImage | Promise<CachedImage> {
    return this.get(key) ?? this.renderOnce(key, render);
  }

  private renderOnce(key: string, render: () => Promise<ImageBody> | ImageBody): Promise<CachedImage> {
    let p = this.pending.get(key);
    if (!p) {
      p = (async () => this.set(key, await render()))().finally(() => this.pending.delete(key));
      this.pending.set(key, p);
    }
    return p;
  }
}
