/**
 * Random sRGB colours with a Chinese traditional colour name when one is close. Pure module.
 */
import { nearestChineseColorOfBytes, type ChineseColorMatch } from '../../../engines/color/chinese-colors.js';
import { hueOf, oneDecimal } from '../../../engines/color/color-space.js';
import { HEX_OF_BYTE } from '../../shared/hex.js';
import { convertRgbToHsl } from 'culori';
import type { Rng } from '../../../shared/rng.js';

export const COLOR_FORMATS = ['all', 'hex', 'rgb', 'hsl'] as const;
export type ColorFormat = (typeof COLOR_FORMATS)[number];

export interface RandomColor {
  hex?: string;
  rgb?: string;
  hsl?: string;
  /** The nearest Chinese traditional colour within the naming threshold, else null. */
  name: ChineseColorMatch | null;
}

/** Each byte's decimal text: a colour's rgb(), like its hex (HEX_OF_BYTE), is three look-ups. */
const TEXT_OF_BYTE = Array.from({ length: 256 }, (_, i) => String(i));

/** One colour drawn uniformly from the 16,777,216 sRGB colours, in the asked format(s). */
export function randomColor(rng: Rng, format: ColorFormat): RandomColor {
  const value = rng.int(0x1000000);
  const r = value >> 16;
  const g = (value >> 8) & 0xff;
  const b = value & 0xff;
  const out: RandomColor = { name: nearestChineseColorOfBytes(r, g, b) };
  if (format === 'all' || format === 'hex') out.hex = `#${HEX_OF_BYTE[r]}${HEX_OF_BYTE[g]}${HEX_OF_BYTE[b]}`;
  if (format === 'all' || format === 'rgb') out.rgb = `rgb(${TEXT_OF_BYTE[r]}, ${TEXT_OF_BYTE[g]}, ${TEXT_OF_BYTE[b]})`;
  if (format === 'all' || format === 'hsl') {
    // culori's rgb → hsl (what its converter('hsl') runs for an rgb colour), given what its parser makes of the hex.
    const hsl = convertRgbToHsl({ r: r / 255, g: g / 255, b: b / 255 });
    out.hsl = `hsl(${oneDecimal(hueOf(hsl.h))}, ${oneDecimal((hsl.s ?? 0) * 100)}%, ${oneDecimal((hsl.l ?? 0) * 100)}%)`;
  }
  return out;
}
