/**
 * A Tailwind-style palette (steps 50 … 950) around one colour, built in OKLCH. Pure module (culori).
 *
 * 1. The nearest Tailwind family by hue gives the chroma profile; how saturated the colour is against that family
 *    at its lightness (`scale`) decides whether it is a colour or a tinted grey. The lightness curve comes from
 *    that family, or for a tinted grey from the nearest of Tailwind's greys (tailwind-families.ts).
 * 2. The colour lands on the step whose lightness is nearest its own; that step is the exact input.
 * 3. The other steps keep the family's lightness, bent toward the input's by an amount that fades to nothing at
 *    50 and 950, so the steps next to the input stay evenly spaced instead of bunching up beside it.
 * 4. Chroma is the family's profile times `scale`, reduced (lightness and hue kept) until it fits sRGB.
 *    The hue is the input's everywhere.
 */
import { clampChroma, displayable, type Oklch } from 'culori';
import { contrastOf } from '../../../engines/color/color-convert.js';
import { hexOf, parseColor, rgb255, rgbOfHex, round, toOklch, toRgb } from '../../../engines/color/color-space.js';
import {
  GREY_RELATIVE_CHROMA,
  STEPS,
  greyFamilyOf,
  hueFamilyOf,
  nearestStepIndex,
  type Step,
  type TailwindFamily,
} from './tailwind-families.js';

export interface Shade {
  step: Step;
  hex: string;
  rgb: string;
  oklch: string;
  l: number;
  c: number;
  h: number;
  /** true for the step that is the input colour itself. */
  isInput: boolean;
  /** The better text colour on this shade by WCAG contrast. */
  textOn: 'white' | 'black';
}

export interface PaletteCore {
  hex: string;
  step: Step;
  /** The Tailwind family whose lightness curve was followed (a grey such as slate for greyish colours). */
  family: string;
  shades: Shade[];
}

/**
 * Upper bound of the chroma scale. A pale but vivid colour (e.g. oklch(97% 0.05 30), against red-50's 0.013) would
 * otherwise scale the darker steps far past anything Tailwind ships; the sRGB clamp alone would leave them garish.
 */
const MAX_SCALE = 1.5;

/** Target lightness per step: the family's curve, bent so step `k` equals `l`, fading to no change at the ends. */
export function lightnessCurve(family: TailwindFamily, k: number, l: number): number[] {
  const last = STEPS.length - 1;
  const plain = [...family.l];
  plain[k] = l;
  // At 50 or 950 the input may lie far beyond the curve (white, black): bending would crush the next steps.
  if (k === 0 || k === last) return plain;
  const delta = l - family.l[k];
  const weight = (i: number) => (i < k ? i / k : (last - i) / (last - k));
  const bent = family.l.map((target, i) => (i === k ? l : target + delta * weight(i)));
  // Nearest-step selection keeps |delta| under half a gap, so the bend never reorders steps; guard anyway.
  return bent.every((v, i) => i === 0 || v < bent[i - 1]) ? bent : plain;
}

/** Builds the 11 shades around `input` (any colour parseColor accepts). Returns undefined when it is not a colour. */
export function buildPalette(input: string): PaletteCore | undefined {
  const parsed = parseColor(input);
  if (!parsed) return undefined;
  // Alpha is dropped: a palette is a set of opaque fills.
  const { r, g, b } = parsed.rgb;
  const hex = hexOf(parsed.rgb);
  const lch = toOklch({ mode: 'rgb', r, g, b });
  const hueFamily = hueFamilyOf(lch.h);
  const scale = Math.min(lch.c / hueFamily.c[nearestStepIndex(hueFamily, lch.l)], MAX_SCALE);
  const family = scale < GREY_RELATIVE_CHROMA ? greyFamilyOf(lch.c, lch.h) : hueFamily;
  const k = nearestStepIndex(family, lch.l);
  const lightness = lightnessCurve(family, k, lch.l);

  const shades = STEPS.map((step, i): Shade => {
    let color: Oklch = lch;
    let shadeHex = hex;
    if (i !== k) {
      const wanted: Oklch = { mode: 'oklch', l: lightness[i], c: hueFamily.c[i] * scale, h: lch.h ?? 0 };
      color = displayable(wanted) ? wanted : (clampChroma(wanted, 'oklch', 'rgb') as Oklch);
      shadeHex = hexOf(toRgb(color));
    }
    const c = round(color.c, 4);
    const h = round(color.h ?? 0, 2);
    const rgb = rgbOfHex(shadeHex);
    const c255 = rgb255(rgb);
    return {
      step,
      hex: shadeHex,
      rgb: `rgb(${c255.r}, ${c255.g}, ${c255.b})`,
      oklch: `oklch(${round(color.l * 100, 2)}% ${c} ${h})`,
      l: round(color.l, 4),
      c,
      h,
      isInput: i === k,
      textOn: contrastOf(rgb).better,
    };
  });
  return { hex, step: STEPS[k], family: family.name, shades };
}

export interface PaletteSnippets {
  /** tailwind.config.js (v3) `theme.extend.colors` entry, ready to paste. */
  tailwindConfig: string;
  /** Tailwind v4 CSS-first configuration: an `@theme` block of `--color-<name>-<step>` in OKLCH. */
  tailwindV4Css: string;
  /** Plain CSS custom properties on :root, in hex. */
  cssVariables: string;
  classNames: { bg: string[]; text: string[]; border: string[]; ring: string[] };
  /** A few typical combinations using the palette. */
  examples: string[];
}

/** Ready-to-paste configuration and class names for a palette called `name`. */
export function paletteSnippets(name: string, shades: Shade[]): PaletteSnippets {
  const cls = (prefix: string) => shades.map((s) => `${prefix}-${name}-${s.step}`);
  const at = (step: Step) => shades.find((s) => s.step === step)!;
  const key = /^[a-z_$][a-z0-9_$]*$/i.test(name) ? name : `'${name}'`;
  const tailwindConfig = [
    '// tailwind.config.js',
    'export default {',
    '  theme: {',
    '    extend: {',
    '      colors: {',
    `        ${key}: {`,
    ...shades.map((s) => `          ${s.step}: '${s.hex}',`),
    '        },',
    '      },',
    '    },',
    '  },',
    '};',
  ].join('\n');
  const tailwindV4Css = ['@theme {', ...shades.map((s) => `  --color-${name}-${s.step}: ${s.oklch};`), '}'].join('\n');
  const cssVariables = [':root {', ...shades.map((s) => `  --${name}-${s.step}: ${s.hex};`), '}'].join('\n');
  const on500 = at(500).textOn === 'white' ? 'text-white' : 'text-black';
  const on600 = at(600).textOn === 'white' ? 'text-white' : 'text-black';
  return {
    tailwindConfig,
    tailwindV4Css,
    cssVariables,
    classNames: { bg: cls('bg'), text: cls('text'), border: cls('border'), ring: cls('ring') },
    examples: [
      `bg-${name}-600 hover:bg-${name}-700 ${on600}`,
      `bg-${name}-500 ${on500}`,
      `bg-${name}-50 text-${name}-700 border border-${name}-200`,
      `text-${name}-600 hover:text-${name}-800 underline`,
      `focus:ring-2 focus:ring-${name}-500`,
      `dark:bg-${name}-950 dark:text-${name}-100`,
    ],
  };
}
