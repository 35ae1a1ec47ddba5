/**
 * One colour in every common notation, with its WCAG 2.x contrast against white and black. Pure module (culori).
 */
import { converter, wcagContrast, type Rgb } from 'culori';
import { paramError } from '../../errors.js';
import { nearestChineseColor, type ChineseColorMatch } from './chinese-colors.js';
import {
  ACCEPTED_FORMATS,
  BLACK,
  WHITE,
  cmykOf,
  cssNameOf,
  hexOf,
  hueOf,
  over,
  parseColor,
  rgb255,
  round,
  toOklch,
} from './color-space.js';

const toHsl = converter('hsl');
const toHsv = converter('hsv');
const toHwb = converter('hwb');
const toLab = converter('lab');
const toLch = converter('lch');
const toOklab = converter('oklab');

export interface WcagVerdict {
  /** Contrast ratio 1–21, floored to two decimals (the pass flags use the exact ratio, as WCAG requires). */
  ratio: number;
  /** Normal text needs 4.5:1 for AA and 7:1 for AAA; large text (≥ 24 px, or ≥ 18.66 px bold) 3:1 and 4.5:1. */
  aa: boolean;
  aaLarge: boolean;
  aaa: boolean;
  aaaLarge: boolean;
}

export interface ColorConversion {
  input: string;
  hex: string;
  /** `#rrggbbaa` when the colour is translucent, else null. */
  hex8: string | null;
  alpha: number;
  inGamut: boolean;
  rgb: { r: number; g: number; b: number; css: string };
  hsl: { h: number; s: number; l: number; css: string };
  hsv: { h: number; s: number; v: number };
  hwb: { h: number; w: number; b: number; css: string };
  cmyk: { c: number; m: number; y: number; k: number; css: string };
  lab: { l: number; a: number; b: number; css: string };
  lch: { l: number; c: number; h: number; css: string };
  oklab: { l: number; a: number; b: number; css: string };
  oklch: { l: number; c: number; h: number; css: string };
  cssName: string | null;
  chineseName: ChineseColorMatch | null;
  contrast: { white: WcagVerdict; black: WcagVerdict; better: 'white' | 'black' };
}

function verdict(ratio: number): WcagVerdict {
  return {
    ratio: Math.floor(ratio * 100) / 100,
    aa: ratio >= 4.5,
    aaLarge: ratio >= 3,
    aaa: ratio >= 7,
    aaaLarge: ratio >= 4.5,
  };
}

/** The WCAG 2.x contrast of a (possibly translucent) colour against white and against black. */
export function contrastOf(rgb: Rgb & { alpha?: number }): ColorConversion['contrast'] {
  const white = wcagContrast(over(rgb, WHITE), WHITE);
  const black = wcagContrast(over(rgb, BLACK), BLACK);
  return { white: verdict(white), black: verdict(black), better: white >= black ? 'white' : 'black' };
}

/** Converts any CSS colour (or Chinese traditional colour name) into every notation. Throws a parameter error otherwise. */
export function convertColor(input: string): ColorConversion {
  const parsed = parseColor(input);
  if (!parsed) throw paramError('color', `无法识别的颜色，支持 ${ACCEPTED_FORMATS}`, input);
  const { rgb, alpha } = { rgb: parsed.rgb, alpha: round(parsed.rgb.alpha, 3) };
  const hex = hexOf(rgb);
  const alphaCss = alpha < 1 ? ` / ${alpha}` : '';
  const c255 = rgb255(rgb);

  const hsl = toHsl(rgb);
  const hsv = toHsv(rgb);
  const hwb = toHwb(rgb);
  const lab = toLab(rgb);
  const lch = toLch(rgb);
  const oklab = toOklab(rgb);
  const oklch = toOklch(rgb);
  const pct = (v: number | undefined) => round((v ?? 0) * 100, 1);
  const cmyk = cmykOf(rgb);

  const h = { hsl: hueOf(hsl.h), hwb: hueOf(hwb.h), lch: hueOf(lch.h, 2), oklch: hueOf(oklch.h, 2) };
  return {
    input,
    hex,
    hex8:
      alpha < 1
        ? `${hex}${Math.round(alpha * 255)
            .toString(16)
            .padStart(2, '0')}`
        : null,
    alpha,
    inGamut: parsed.inGamut,
    rgb: {
      ...c255,
      css: alpha < 1 ? `rgba(${c255.r}, ${c255.g}, ${c255.b}, ${alpha})` : `rgb(${c255.r}, ${c255.g}, ${c255.b})`,
    },
    hsl: {
      h: h.hsl,
      s: pct(hsl.s),
      l: pct(hsl.l),
      css:
        alpha < 1
          ? `hsla(${h.hsl}, ${pct(hsl.s)}%, ${pct(hsl.l)}%, ${alpha})`
          : `hsl(${h.hsl}, ${pct(hsl.s)}%, ${pct(hsl.l)}%)`,
    },
    hsv: { h: hueOf(hsv.h), s: pct(hsv.s), v: pct(hsv.v) },
    hwb: { h: h.hwb, w: pct(hwb.w), b: pct(hwb.b), css: `hwb(${h.hwb} ${pct(hwb.w)}% ${pct(hwb.b)}%${alphaCss})` },
    cmyk: { ...cmyk, css: `device-cmyk(${cmyk.c}% ${cmyk.m}% ${cmyk.y}% ${cmyk.k}%)` },
    lab: {
      l: round(lab.l, 2),
      a: round(lab.a, 2),
      b: round(lab.b, 2),
      css: `lab(${round(lab.l, 2)}% ${round(lab.a, 2)} ${round(lab.b, 2)}${alphaCss})`,
    },
    lch: {
      l: round(lch.l, 2),
      c: round(lch.c, 2),
      h: h.lch,
      css: `lch(${round(lch.l, 2)}% ${round(lch.c, 2)} ${h.lch}${alphaCss})`,
    },
    oklab: {
      l: round(oklab.l, 4),
      a: round(oklab.a, 4),
      b: round(oklab.b, 4),
      css: `oklab(${round(oklab.l * 100, 3)}% ${round(oklab.a, 5)} ${round(oklab.b, 5)}${alphaCss})`,
    },
    oklch: {
      l: round(oklch.l, 4),
      c: round(oklch.c, 4),
      h: h.oklch,
      css: `oklch(${round(oklch.l * 100, 3)}% ${round(oklch.c, 5)} ${h.oklch}${alphaCss})`,
    },
    cssName: cssNameOf(hex) ?? null,
    chineseName: nearestChineseColor(rgb),
    contrast: contrastOf(rgb),
  };
}
