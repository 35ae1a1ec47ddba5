import { describe, expect, it } from 'vitest';
import { converter, differenceCiede2000 } from 'culori';
import { seededRng } from '../../../shared/rng.js';
import { buildPalette, lightnessCurve, paletteSnippets } from './palette.js';
import { STEPS, TAILWIND_FAMILIES } from './tailwind-families.js';

const toRgb = converter('rgb');

const palette = (color: string) => {
  const p = buildPalette(color);
  if (!p) throw new Error(`not a colour: ${color}`);
  return p;
};

/** A spread of inputs: named edge cases plus 300 seeded random colours. */
const rng = seededRng('palette');
const INPUTS = [
  '#3b82f6',
  '#eab308',
  '#ef4444',
  '#22c55e',
  '#64748b',
  '#ffffff',
  '#000000',
  '#808080',
  '#9d2933',
  '#fff143',
  '#00ff00',
  '#0000ff',
  'oklch(97% 0.05 30)',
  'oklch(20% 0.1 150)',
  ...Array.from({ length: 300 }, () => `#${rng.int(0x1000000).toString(16).padStart(6, '0')}`),
];

describe('Tailwind-style palette', () => {
  it('has the 11 steps 50 … 950 with lightness strictly decreasing, for every input', () => {
    for (const input of INPUTS) {
      const p = palette(input);
      expect(p.shades.map((s) => s.step)).toEqual([...STEPS]);
      for (let i = 1; i < p.shades.length; i++)
        expect(p.shades[i].l, `${input} step ${p.shades[i].step}`).toBeLessThan(p.shades[i - 1].l);
    }
  });

  it('keeps every shade inside sRGB (hex and OKLCH agree)', () => {
    const ciede = differenceCiede2000();
    for (const input of INPUTS) {
      for (const s of palette(input).shades) {
        const fromOklch = { mode: 'oklch' as const, l: s.l, c: s.c, h: s.h };
        // The published OKLCH is rounded to 4 decimals, which near the steep edge of the gamut (pure green, blue)
        // can move a channel up to ~0.002 past 0 or 1; the chroma-clamped colour itself is inside.
        const rgb = toRgb(fromOklch);
        for (const v of [rgb.r, rgb.g, rgb.b]) {
          expect(v, `${input} ${s.step}`).toBeGreaterThan(-0.005);
          expect(v, `${input} ${s.step}`).toBeLessThan(1.005);
        }
        expect(ciede(fromOklch, s.hex), `${input} ${s.step}`).toBeLessThan(1);
      }
    }
  });

  it('puts the input, exactly, on the step whose lightness is nearest', () => {
    for (const input of INPUTS) {
      const p = palette(input);
      const inputShades = p.shades.filter((s) => s.isInput);
      expect(inputShades).toHaveLength(1);
      expect(inputShades[0].step).toBe(p.step);
      expect(inputShades[0].hex).toBe(p.hex);
      const family = TAILWIND_FAMILIES.find((f) => f.name === p.family)!;
      const l = inputShades[0].l;
      const k = STEPS.indexOf(p.step);
      for (const target of family.l) expect(Math.abs(family.l[k] - l)).toBeLessThanOrEqual(Math.abs(target - l) + 1e-4);
    }
  });

  it('Tailwind’s own blue-500 (v3 #3b82f6) lands on 500 of the blue family', () => {
    expect(palette('#3b82f6')).toMatchObject({ step: 500, family: 'blue', hex: '#3b82f6' });
    expect(palette('#eab308')).toMatchObject({ step: 500, family: 'yellow' }); // yellow-500 is light: its own curve
    expect(palette('#ef4444')).toMatchObject({ step: 500, family: 'red' });
    expect(palette('#64748b')).toMatchObject({ step: 500, family: 'slate' }); // a greyish blue follows slate
  });

  it('rebuilds Tailwind v4 red from its own red-500, within a just-noticeable difference at most steps', () => {
    const red = TAILWIND_FAMILIES.find((f) => f.name === 'red')!;
    const p = palette('oklch(63.7% 0.237 25.331)');
    expect(p.step).toBe(500);
    const ciede = differenceCiede2000();
    // Tailwind's hue drifts a few degrees across steps and some v4 reds lie outside sRGB; ours keep one hue, in sRGB.
    const close = p.shades.filter(
      (s, i) => ciede(s.hex, { mode: 'oklch', l: red.l[i], c: Math.min(red.c[i], s.c + 0.02), h: s.h }) < 3,
    );
    expect(close.length).toBeGreaterThanOrEqual(9);
  });

  it('greys stay grey and the ends take white and black', () => {
    const grey = palette('#808080');
    expect(grey.family).toBe('neutral');
    expect(grey.shades.every((s) => s.c === 0)).toBe(true);
    expect(palette('#ffffff').step).toBe(50);
    expect(palette('#000000').step).toBe(950);
    expect(palette('#000000').shades[9].hex).not.toBe('#000000'); // 900 is not crushed into black
  });

  it('bends the curve only around an inner step, evenly', () => {
    const blue = TAILWIND_FAMILIES.find((f) => f.name === 'blue')!;
    const curve = lightnessCurve(blue, 5, blue.l[5] + 0.03);
    expect(curve[5]).toBeCloseTo(blue.l[5] + 0.03, 6);
    expect(curve[0]).toBe(blue.l[0]);
    expect(curve[10]).toBe(blue.l[10]);
    expect(lightnessCurve(blue, 0, 1)).toEqual([1, ...blue.l.slice(1)]);
  });

  it('writes paste-ready Tailwind v3 config, v4 @theme, CSS variables and class names', () => {
    const p = palette('#3b82f6');
    const s = paletteSnippets('brand', p.shades);
    expect(s.tailwindConfig).toContain("colors: {\n        brand: {\n          50: '#");
    expect(s.tailwindConfig).toContain("500: '#3b82f6',");
    expect(s.tailwindV4Css).toMatch(/^@theme \{\n {2}--color-brand-50: oklch\(\d+(\.\d+)?% [\d.]+ [\d.]+\);/);
    expect(s.tailwindV4Css.split('\n')).toHaveLength(13);
    expect(s.cssVariables).toContain('  --brand-500: #3b82f6;');
    expect(s.classNames.bg).toEqual(STEPS.map((n) => `bg-brand-${n}`));
    expect(s.classNames.text[7]).toBe('text-brand-700');
    expect(paletteSnippets('sea-blue', p.shades).tailwindConfig).toContain("'sea-blue': {");
  });

  it('is undefined for something that is not a colour', () => {
    expect(buildPalette('not-a-colour')).toBeUndefined();
  });
});
