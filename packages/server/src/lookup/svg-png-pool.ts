/**
 * SVG → PNG off the event loop: a small piscina pool of resvg workers shared by every image endpoint of the
 * process. Threads start on first use and are released when idle; a full queue is answered with an error rather
 * than letting image requests pile up without bound.
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { LookupError } from '../errors.js';
import { workerEntry } from './worker-entry.js';
import type { SvgPngTask } from './svg-png-worker.js';

/** Render tasks waiting beyond the running ones; a 4096×4096 image takes about a second. */
const MAX_QUEUE = 64;

let pool: Piscina | undefined;

function thePool(): Piscina {
  pool ??= new Piscina({
    ...workerEntry(import.meta.url, 'svg-png-worker'),
    minThreads: 0,
    maxThreads: Math.max(1, Math.min(2, availableParallelism() - 1)),
    maxQueue: MAX_QUEUE,
    idleTimeout: 30_000,
  });
  return pool;
}

/** PNG bytes of `svg`, scaled to `width` pixels wide when given. */
export async function renderPng(svg: string, width?: number): Promise<Buffer> {
  const task: SvgPngTask = { svg, width };
  try {
    const png = (await thePool().run(task)) as Uint8Array;
    return Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  } catch (err) {
    if (err instanceof Error && err.message === 'Task queue is at limit') throw new LookupError('图片渲染繁忙：排队的 PNG 渲染过多，请稍后重试，或改用 format=svg');
    throw err;
  }
}
