/**
 * Worker-thread entry of svg-png-pool.ts: rasterises one SVG per task with resvg, so neither the rendering nor the
 * PNG encoding (the larger part: ~0.6 s for 4096×4096) runs on the server's event loop.
 */
import { Piscina } from 'piscina';
import { Resvg } from '@resvg/resvg-js';

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
  // Hand the bytes over instead of copying them back to the main thread.
  return Piscina.move(new Uint8Array(png.buffer, png.byteOffset, png.byteLength));
}
