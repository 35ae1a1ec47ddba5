/**
 * SVG → PNG off the event loop, with resvg in the process's drawing threads (worker-entry.ts), for every image
 * endpoint. Threads start on first use and are released when idle; a full queue is answered with an error rather
 * than letting image requests pile up without bound.
 */
import { lazyPool } from '../../engines/workers/worker-entry.js';
import type { SvgPngTask } from './svg-png-worker.js';

const run = lazyPool(
  import.meta.url,
  'svg-png-worker',
  '图片渲染繁忙：排队的 PNG 渲染过多，请稍后重试，或改用 format=svg',
);

/** PNG bytes of `svg`, scaled to `width` pixels wide when given. */
export async function renderPng(svg: string, width?: number): Promise<Buffer> {
  const task: SvgPngTask = { svg, width };
  const png = await run<Uint8Array>(task);
  return Buffer.from(png.buffer, png.byteOffset, png.byteLength);
}
