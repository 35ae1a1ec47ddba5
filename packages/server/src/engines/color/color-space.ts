/**
 * Colour parsing and the small sRGB helpers the colour tools share (culori underneath). Pure module.
 */
import { colorsNamed, converter, formatHex, parse, toGamut, type Color, type Rgb } from 'culori';
import { chineseColorByName } from './chinese-colors.js';

export const toRgb = converter('rgb');
export const toOklch = converter('oklch');

/** CSS Color 4 gamut mapping (OKLCH chroma reduction with a ΔE_OK tolerance), as browsers do it. */
const mapToSrgb = toGamut('rgb', 'oklch');

/** What `parseColor` accepts, for error messages. */
export const ACCEPTED_FORMATS =
  '十六进制（#3b82f6、3b82f6、#fff、#3b82f680）、rgb()/rgba()、hsl()/hsla()、hwb()、lab()、lch()、oklab()、oklch()、device-cmyk()（如 device-cmyk(0% 47% 2% 4%)）、color(display-p3 …)、CSS 颜色名（如 rebeccapurple）或中国传统色名（如 胭脂、靛青）';

export interface ParsedColor {
  /** The colour in sRGB, mapped into the gamut when the input lay outside it; alpha kept (1 when opaque). */
  rgb: Rgb & { alpha: number };
  /** false when the input lay outside sRGB (e.g. `oklch(70% 0.4 30)`, `color(display-p3 1 0 0)`) and was mapped in. */
  inGamut: boolean;
  /** Set when the input was a Chinese traditional colour name. */
  chineseName?: string;
}

/**
 * culori's parse, for text from a caller: its tokenizer throws on some malformed input (`a/1x`, `aC/6H` read as a
 * hex colour followed by an alpha), and that is no colour, not a server fault. NaN channels are no colour either.
 */
function parseCss(text: string): Color | undefined {
  let parsed: Color | undefined;
  try {
    parsed = parse(text);
  } catch {
    return undefined;
  }
  if (!parsed) return undefined;
  const channels = Object.entries(parsed).filter(([k]) => k !== 'mode');
  return channels.every(([, v]) => v === undefined || Number.isFinite(v)) ? parsed : undefined;
}

/**
 * Naive (device-independent) CMYK from sRGB: K = 1 − max(R, G, B), C = (1 − R − K) / (1 − K), …
 * Print shops use ICC profiles; this is the formula colour pickers show, and CSS Color 5's for `device-cmyk()`.
 */
export function cmykOf(c: Rgb): { c: number; m: number; y: number; k: number } {
  const k = 1 - Math.max(c.r, c.g, c.b);
  if (k >= 1 - 1e-9) return { c: 0, m: 0, y: 0, k: 100 };
  const f = (v: number) => round(((1 - v - k) / (1 - k)) * 100, 1);
  return { c: f(c.r), m: f(c.g), y: f(c.b), k: round(k * 100, 1) };
}

const CMYK_VALUE = String.raw`([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?%?)`;
const DEVICE_CMYK = new RegExp(
  String.raw`^device-cmyk\(\s*${CMYK_VALUE}(?:\s+|\s*,\s*)${CMYK_VALUE}(?:\s+|\s*,\s*)${CMYK_VALUE}(?:\s+|\s*,\s*)${CMYK_VALUE}\s*(?:\/\s*${CMYK_VALUE}\s*)?\)$`,
  'i',
);

/**
 * `device-cmyk(0% 47% 2% 4%)` (CSS Color 5; also 0–1 numbers, commas, `/ alpha`), which culori does not read: the
 * inverse of cmykOf, CSS Color 5's naive conversion `R = 1 − min(1, C × (1 − K) + K)`. Components clamp to 0–1.
 */
function parseDeviceCmyk(text: string): Color | undefined {
  const m = DEVICE_CMYK.exec(text);
  if (!m) return undefined;
  const unit = (v: string) => {
    const n = v.endsWith('%') ? Number.parseFloat(v) / 100 : Number.parseFloat(v);
    return Math.min(1, Math.max(0, n));
  };
  const [c, mg, y, k] = m.slice(1, 5).map(unit);
  const channel = (v: number) => 1 - Math.min(1, v * (1 - k) + k);
  return {
    mode: 'rgb',
    r: channel(c),
    g: channel(mg),
    b: channel(y),
    alpha: m[5] === undefined ? undefined : unit(m[5]),
  };
}

/** Parses any CSS colour, a bare hex value, or a Chinese traditional colour name; undefined when it is none of these. */
export function parseColor(input: string): ParsedColor | undefined {
  const text = input.trim();
  const named = chineseColorByName(text);
  const parsed: Color | undefined = named ? parse(named.hex) : (parseDeviceCmyk(text) ?? parseCss(text));
  if (!parsed) return undefined;
  const rgb = toRgb(parsed);
  const alpha = parsed.alpha ?? 1;
  // Within half an 8-bit step of sRGB is in it: the printed lab()/oklch() … of an sRGB colour, rounded, can land a
  // hair outside, and must read back as the same in-gamut colour (issue 50).
  const EPS = 0.5 / 255;
  const inGamut = [rgb.r, rgb.g, rgb.b].every((v) => v >= -EPS && v <= 1 + EPS);
  const mapped = inGamut ? rgb : mapToSrgb(parsed);
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  return {
    rgb: { mode: 'rgb', r: clamp(mapped.r), g: clamp(mapped.g), b: clamp(mapped.b), alpha },
    inGamut,
    chineseName: named?.name,
  };
}

export const round = (n: number, digits = 0) => {
  const f = 10 ** digits;
  const r = Math.round(n * f) / f;
  return Object.is(r, -0) ? 0 : r;
};

/**
 * `String(round(n, 1))` without the double-to-string conversion, which costs about twice as much (three of them were
 * a third of a random colour's CPU): the tenths as an integer, then the digits. Same text for every finite n whose
 * tenths fit in a safe integer, e.g. `oneDecimal(355.26)` → `'355.3'`, `oneDecimal(36.04)` → `'36'`.
 */
export function oneDecimal(n: number): string {
  const tenths = Math.round(n * 10);
  if (tenths >= 0 && tenths < TENTHS_TEXT.length) return TENTHS_TEXT[tenths];
  if (!Number.isSafeInteger(tenths)) return String(round(n, 1));
  return tenthsText(tenths);
}

/** The text of a number given in tenths: 3553 → `'355.3'`, 360 → `'36'`, -5 → `'-0.5'`, 0 → `'0'`. */
function tenthsText(tenths: number): string {
  if (tenths === 0) return '0';
  const abs = tenths < 0 ? -tenths : tenths;
  const digit = abs % 10;
  const whole = `${tenths < 0 ? '-' : ''}${(abs - digit) / 10}`;
  return digit ? `${whole}.${digit}` : whole;
}

/**
 * tenthsText of 0.0 … 360.0 made once: every hue, percentage and most other one-decimal figures of the colour tools
 * fall in it, and a random colour writes three of them.
 */
const TENTHS_TEXT = Array.from({ length: 3601 }, (_, t) => tenthsText(t));

/** 0–255 channels. */
export function rgb255(c: Rgb): { r: number; g: number; b: number } {
  return { r: Math.round(c.r * 255), g: Math.round(c.g * 255), b: Math.round(c.b * 255) };
}

/** The colour of a `#rrggbb` string this module produced (so known to parse). */
export const rgbOfHex = (hex: string): Rgb => toRgb(parse(hex)!);

/** `#rrggbb`, lower case; the alpha channel is left out. */
export const hexOf = (c: Rgb): string => formatHex({ mode: 'rgb', r: c.r, g: c.g, b: c.b });

/** Hue in degrees for display: culori leaves it undefined for greys, where 0 is the CSS convention. */
export const hueOf = (h: number | undefined, digits = 1) =>
  h === undefined || Number.isNaN(h) ? 0 : round(h, digits) % 360;

const CSS_NAME_BY_HEX = new Map<string, string>();
for (const [name, value] of Object.entries(colorsNamed)) {
  const hex = `#${(value as number).toString(16).padStart(6, '0')}`;
  if (!CSS_NAME_BY_HEX.has(hex)) CSS_NAME_BY_HEX.set(hex, name);
}

/** The CSS named colour with exactly this value (`#663399` → `rebeccapurple`), if there is one. */
export const cssNameOf = (hex: string): string | undefined => CSS_NAME_BY_HEX.get(hex.toLowerCase());

/** Composites a translucent colour over an opaque background (what the eye sees). */
export function over(c: Rgb & { alpha?: number }, bg: Rgb): Rgb {
  const a = c.alpha ?? 1;
  return { mode: 'rgb', r: c.r * a + bg.r * (1 - a), g: c.g * a + bg.g * (1 - a), b: c.b * a + bg.b * (1 - a) };
}

export const WHITE: Rgb = { mode: 'rgb', r: 1, g: 1, b: 1 };
export const BLACK: Rgb = { mode: 'rgb', r: 0, g: 0, b: 0 };
