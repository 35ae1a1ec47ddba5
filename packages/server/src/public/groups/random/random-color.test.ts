import { describe, expect, it } from 'vitest';
import { NAME_THRESHOLD } from '../../../engines/color/chinese-colors.js';
import { convertColor } from '../../../engines/color/color-convert.js';
import { randomColor } from './random-color.js';
import { secureRng, seededRng } from '../../../shared/rng.js';

describe('random colour', () => {
  it('gives hex, rgb and hsl of the same colour', () => {
    for (let i = 0; i < 50; i++) {
      const c = randomColor(secureRng, 'all');
      expect(c.hex).toMatch(/^#[0-9a-f]{6}$/);
      const expected = convertColor(c.hex!);
      expect(c.rgb).toBe(expected.rgb.css);
      expect(c.hsl).toBe(expected.hsl.css);
    }
  });

  it('writes the hex, rgb() and hsl() that converting the colour gives, across the whole cube', () => {
    // A stand-in generator that walks the cube in strides of 1,021 colours (16,433 colours, every value of each channel).
    let value = 0;
    const walk = { int: () => (value = (value + 1021) % 0x1000000), next: () => 0, seeded: true };
    for (let i = 0; i < 0x1000000 / 1021; i++) {
      const c = randomColor(walk, 'all');
      const hex = `#${value.toString(16).padStart(6, '0')}`;
      const expected = convertColor(hex);
      expect([c.hex, c.rgb, c.hsl], hex).toEqual([hex, expected.rgb.css, expected.hsl.css]);
    }
  });

  it('gives only the asked format', () => {
    const c = randomColor(secureRng, 'rgb');
    expect(c.rgb).toMatch(/^rgb\(\d{1,3}, \d{1,3}, \d{1,3}\)$/);
    expect(c.hex).toBeUndefined();
    expect(c.hsl).toBeUndefined();
    expect(Object.keys(randomColor(secureRng, 'hsl')).sort()).toEqual(['hsl', 'name']);
  });

  it('is reproducible from a seed', () => {
    const draw = (seed: string) => {
      const rng = seededRng(seed);
      return Array.from({ length: 5 }, () => randomColor(rng, 'hex').hex);
    };
    expect(draw('tianji')).toEqual(draw('tianji'));
    expect(draw('tianji')).not.toEqual(draw('tianjj'));
  });

  it('names a colour only when a Chinese traditional colour is close, and about a third of the time', () => {
    const rng = seededRng('names');
    let named = 0;
    for (let i = 0; i < 600; i++) {
      const c = randomColor(rng, 'all');
      if (c.name) {
        named++;
        expect(c.name.deltaE).toBeLessThanOrEqual(NAME_THRESHOLD);
        expect(convertColor(c.hex!).chineseName?.name).toBe(c.name.name);
      }
    }
    expect(named / 600).toBeGreaterThan(0.2);
    expect(named / 600).toBeLessThan(0.5);
  });
});
