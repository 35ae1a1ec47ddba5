import { describe, expect, it } from 'vitest';
import { PALETTES, renderWallpaperSvg } from './wallpaper-art.js';

describe('generated wallpaper artwork', () => {
  it('draws the same picture for the same seed and another for another seed', () => {
    const a = renderWallpaperSvg('2026-11-21', 1920, 1080);
    expect(renderWallpaperSvg('2026-11-21', 1920, 1080).svg).toBe(a.svg);
    expect(renderWallpaperSvg('2026-11-22', 1920, 1080).svg).not.toBe(a.svg);
    expect(PALETTES.map((p) => p.name)).toContain(a.palette);
  });

  it('is a well-formed SVG of the asked size', () => {
    const { svg } = renderWallpaperSvg('x', 1080, 1920);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="1080" height="1920"')).toBe(true);
    expect(svg.endsWith('</svg>')).toBe(true);
    expect(svg).not.toMatch(/NaN|undefined/);
  });
});
