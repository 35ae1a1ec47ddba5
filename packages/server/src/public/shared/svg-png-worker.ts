/**
 * Worker-thread entry of svg-png-pool.ts: rasterises one SVG per task with resvg, so neither the rendering nor the
 * PNG encoding (the larger part: ~0.6 s for 4096×4096) runs on the server's event loop.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Piscina } from 'piscina';
import { Resvg } from '@resvg/resvg-js';

/**
 * resvg-js (2.6.2) frees a render's pixel buffer (16 MB at 2048×2048) only when its JS objects are collected, and
 * V8 does not see that native memory, so it has no reason to collect soon (thx/resvg-js#216; the fix, #393, is not
 * released): 20 large renders held ~400 MB of RSS. A scavenge after each render collects the two short-lived
 * objects (a minor GC of this thread's small heap); their finalizers free the pixels on the thread's next turn
 * (worker-entry.ts lets the loop turn between tasks). The flag is process-wide, hence switched off again at once.
 */
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as (options: { type: 'minor' }) => void;
setFlagsFromString('--no-expose-gc');

export interface SvgPngTask {
  svg: string;
  /** Output width in pixels (height follows the aspect ratio); omitted = the SVG's own size. */
  width?: number;
}

export default function renderSvgPng({ svg, width }: SvgPngTask) {
  const png = new Resvg(svg, {
    font: { loadSystemFonts: false },
    fitTo: width === undefined ? { mode: 'original' } : { mode: 'width', value: width },
  })
    .render()
    .asPng();
  collect({ type: 'minor' });
  // Hand the bytes over instead of copying them back to the main thread.
  return Piscina.move(new Uint8Array(png.buffer, png.byteOffset, png.byteLength));
}
