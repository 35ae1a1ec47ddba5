import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { GRADIENT_STYLES, IMAGE_SIZE, PATTERN_STYLES, renderRandomImage, typeForSeed } from './random-image.js';

/** resvg's parser (usvg) rejects malformed SVG: a successful parse with the right size is the check. */
const parsedSize = (svg: string) => {
  const r = new Resvg(svg, { font: { loadSystemFonts: false } });
  return [r.width, r.height];
};

describe('generated images', () => {
  it('are well-formed SVG of the requested size for every style', () => {
    const styles = new Set<string>();
    for (let i = 0; i < 120; i++) {
      const [w, h] = [16 + ((i * 37) % 600), 16 + ((i * 53) % 400)];
      for (const type of ['gradient', 'pattern'] as const) {
        const img = renderRandomImage(`s${i}`, w, h, type);
        expect(img.type).toBe(type);
        expect(parsedSize(img.svg)).toEqual([w, h]);
        expect(img.colors.length).toBeGreaterThanOrEqual(3);
        for (const c of img.colors) expect(c).toMatch(/^#[0-9a-f]{6}$/);
        styles.add(`${type}:${img.style}`);
      }
    }
    expect([...styles].sort()).toEqual(
      [...GRADIENT_STYLES.map((s) => `gradient:${s}`), ...PATTERN_STYLES.map((s) => `pattern:${s}`)].sort(),
    );
  });

  it('are the same picture for the same seed, size and type, and differ by seed', () => {
    expect(renderRandomImage('a', 300, 200, 'pattern')).toEqual(renderRandomImage('a', 300, 200, 'pattern'));
    expect(renderRandomImage('a', 300, 200, 'pattern').svg).not.toBe(renderRandomImage('b', 300, 200, 'pattern').svg);
    expect(renderRandomImage('a', 300, 200).type).toBe(typeForSeed('a'));
  });

  it('keep the largest patterns to a bounded number of shapes', () => {
    for (let i = 0; i < 20; i++) {
      const { svg } = renderRandomImage(`big${i}`, IMAGE_SIZE.max, IMAGE_SIZE.max, 'pattern');
      const shapes = svg.match(/<(rect|circle|polygon|path)\b/g)?.length ?? 0;
      expect(shapes).toBeLessThanOrEqual(2 * 2500 + 2);
    }
  });
});
