/**
 * Random sRGB colours with a Chinese traditional colour name when one is close. Pure module.
 */
import { nearestChineseColorOfBytes, type ChineseColorMatch } from '../shared/chinese-colors.js';
import { hueOf, oneDecimal } from '../shared/color-space.js';
import { converter, type Rgb } from 'culori';
import type { Rng } from '../shared/rng.js';

export const COLOR_FORMATS = ['all', 'hex', 'rgb', 'hsl'] as const;
export type ColorFormat = (typeof COLOR_FORMATS)[number];

export interface RandomColor {
  hex?: string;
  rgb?: string;
  hsl?: string;
  /** The nearest Chinese traditional colour within the naming threshold, else null. */
  name: ChineseColorMatch | null;
}

const toHsl = converter('hsl');

/** One colour drawn uniformly from the 16,777,216 sRGB colours, in the asked format(s). */
export function randomColor(rng: Rng, format: ColorFormat): RandomColor {
  const value = rng.int(0x1000000);
  const hex = `#${value.toString(16).padStart(6, '0')}`;
  const r = value >> 16;
  const g = (value >> 8) & 0xff;
  const b = value & 0xff;
  // What culori's parser makes of the hex, without parsing it.
  const rgb: Rgb = { mode: 'rgb', r: r / 255, g: g / 255, b: b / 255 };
  const hsl = toHsl(rgb);
  const out: RandomColor = { name: nearestChineseColorOfBytes(r, g, b) };
  if (format === 'all' || format === 'hex') out.hex = hex;
  if (format === 'all' || format === 'rgb') out.rgb = `rgb(${r}, ${g}, ${b})`;
  if (format === 'all' || format === 'hsl')
    out.hsl = `hsl(${oneDecimal(hueOf(hsl.h))}, ${oneDecimal((hsl.s ?? 0) * 100)}%, ${oneDecimal((hsl.l ?? 0) * 100)}%)`;
  return out;
}
