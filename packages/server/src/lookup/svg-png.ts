import { Resvg } from '@resvg/resvg-js';

/**
 * Renders an SVG to PNG with resvg (a prebuilt binary from npm; no browser, no network). Images drawn by this service
 * carry no text, so no system fonts are loaded.
 */
export function svgToPng(svg: string): Buffer {
  return new Resvg(svg, { font: { loadSystemFonts: false } }).render().asPng();
}
