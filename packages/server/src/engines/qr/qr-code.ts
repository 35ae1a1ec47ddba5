/**
 * QR code images: the symbol from the `qrcode` package's encoder, drawn here as a 1-bit PNG (png-bitmap.ts) or an SVG
 * path. Pure module: no HTTP framework here.
 */
import QRCode from 'qrcode';
import { wcagContrast, wcagLuminance } from 'culori';
import { paramError } from '../../errors.js';
import { encodeGridPng, type Rgba } from './png-bitmap.js';
import { WHITE, over } from '../color/color-space.js';

export type QrLevel = 'L' | 'M' | 'Q' | 'H';
export type ImageFormat = 'png' | 'svg';

export interface QrOptions {
  text: string;
  /** Image width and height in pixels (PNG) or the SVG's width/height attributes. */
  size: number;
  format: ImageFormat;
  level: QrLevel;
  /** Quiet zone in modules. */
  margin: number;
  /** Dark modules, `#RRGGBB` or `#RRGGBBAA` (the `#` optional). */
  color: string;
  background: string;
}

export interface QrImage {
  contentType: string;
  body: Buffer;
  /** Pixels per side of the image. */
  size: number;
  /** QR version 1–40 (21 … 177 modules per side). */
  version: number;
  /** Modules per side, without the quiet zone. */
  modules: number;
  /** WCAG contrast of colour against background (translucent colours composited over white). */
  contrast: number;
  /** Advice that does not stop the code from being made. */
  warnings: string[];
}

/** Byte-mode capacity at version 40 per error-correction level (ISO/IEC 18004 table 7). */
export const QR_BYTE_CAPACITY: Record<QrLevel, number> = { L: 2953, M: 2331, Q: 1663, H: 1273 };

const LEVEL_NAMES: Record<QrLevel, string> = {
  L: 'L（约 7% 纠错）',
  M: 'M（约 15%）',
  Q: 'Q（约 25%）',
  H: 'H（约 30%）',
};

/** Below this contrast most phone cameras fail to separate modules from background; such a code is refused. */
export const MIN_QR_CONTRAST = 2;

const HEX = /^#?([0-9a-f]{6}|[0-9a-f]{8})$/i;

/** A colour parameter as RGBA. `#rgb` shorthands are refused: one spelling per colour keeps image URLs canonical. */
export function parseHexParam(name: string, value: string): Rgba {
  const m = HEX.exec(value.trim());
  if (!m)
    throw paramError(
      name,
      '应为十六进制颜色 RRGGBB 或 RRGGBBAA（# 可省略；在 URL 中 # 要写成 %23），如 000000、1e40afff',
      value,
    );
  const h = m[1];
  const byte = (i: number) => parseInt(h.slice(i, i + 2), 16);
  return { r: byte(0), g: byte(2), b: byte(4), a: h.length === 8 ? byte(6) : 255 };
}

const hexOfRgba = (c: Rgba) => `#${[c.r, c.g, c.b, c.a].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
const toCulori = (c: Rgba) => ({ mode: 'rgb' as const, r: c.r / 255, g: c.g / 255, b: c.b / 255, alpha: c.a / 255 });

/** The QR symbol for `text`, or a parameter error that says how much fits at the chosen level. */
function encode(text: string, level: QrLevel) {
  try {
    return QRCode.create(text, { errorCorrectionLevel: level });
  } catch (err) {
    const bytes = Buffer.byteLength(text, 'utf8');
    if (/too big/i.test((err as Error).message)) {
      const lower = (['L', 'M', 'Q'] as const).filter((l) => QR_BYTE_CAPACITY[l] > QR_BYTE_CAPACITY[level]);
      throw paramError(
        'text',
        `内容过长：纠错等级 ${LEVEL_NAMES[level]}最多容纳 ${QR_BYTE_CAPACITY[level]} 字节（UTF-8，一个汉字 3 字节），该内容 ${bytes} 字节` +
          (lower.length
            ? `；可缩短内容或降低 level（${lower.map((l) => `${l} 最多 ${QR_BYTE_CAPACITY[l]} 字节`).join('，')}）`
            : '；请缩短内容'),
      );
    }
    throw err;
  }
}

/** Renders a QR code. Throws parameter errors for unusable colours, too much text, or a size too small for the symbol. */
export function renderQrCode(o: QrOptions): QrImage {
  const dark = parseHexParam('color', o.color);
  const light = parseHexParam('background', o.background);
  if (dark.r === light.r && dark.g === light.g && dark.b === light.b && dark.a === light.a) {
    throw paramError('color', `前景色与背景色 background 相同，二维码无法识别`, o.color);
  }
  const contrast = wcagContrast(over(toCulori(dark), WHITE), over(toCulori(light), WHITE));
  if (contrast < MIN_QR_CONTRAST) {
    throw paramError(
      'color',
      `与背景色 ${o.background} 的对比度只有 ${contrast.toFixed(2)}:1，至少需要 ${MIN_QR_CONTRAST}:1 才能被扫码识别（建议 4.5:1 以上，深色码配浅色底）`,
      o.color,
    );
  }

  const qr = encode(o.text, o.level);
  const modules = qr.modules.size;
  const cells = modules + 2 * o.margin;
  const warnings: string[] = [];
  if (contrast < 4.5) warnings.push(`颜色对比度 ${contrast.toFixed(2)}:1 偏低，部分设备可能识别困难（建议 ≥ 4.5:1）`);
  if (wcagLuminance(over(toCulori(dark), WHITE)) > wcagLuminance(over(toCulori(light), WHITE))) {
    warnings.push('浅色码配深色底（反色）：部分较旧的扫码器不支持');
  }
  if (o.margin < 2) warnings.push(`留白 margin=${o.margin} 小于 2 个模块，贴近其他图案时可能难以识别（标准建议 4）`);

  if (o.format === 'svg') {
    const svg = svgOf(qr.modules, o.margin, o.size, hexOfRgba(dark), hexOfRgba(light));
    return {
      contentType: 'image/svg+xml; charset=utf-8',
      body: Buffer.from(svg),
      size: o.size,
      version: qr.version,
      modules,
      contrast: round2(contrast),
      warnings,
    };
  }
  if (o.size < cells) {
    throw paramError(
      'size',
      `该内容的二维码为 ${modules}×${modules} 模块（加留白共 ${cells}），PNG 的 size 至少为 ${cells} 像素（建议 ≥ ${cells * 3}），或减少内容、降低 level、减小 margin`,
      o.size,
    );
  }
  const data = qr.modules.data;
  const png = encodeGridPng(o.size, cells, dark, light, (col, row) => {
    const x = col - o.margin;
    const y = row - o.margin;
    return x >= 0 && y >= 0 && x < modules && y < modules && data[y * modules + x] === 1;
  });
  return {
    contentType: 'image/png',
    body: png,
    size: o.size,
    version: qr.version,
    modules,
    contrast: round2(contrast),
    warnings,
  };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * SVG of the symbol: the dark modules as horizontal runs of one stroked path (`M x y.5 h n` per run, as the
 * `qrcode` package draws them; about half the size of filled rectangles), `viewBox` in modules,
 * `shape-rendering="crispEdges"`. Written here rather than with `QRCode.toString` so the PNG and the SVG come from
 * the same encoded symbol.
 */
function svgOf(
  m: { size: number; data: Uint8Array },
  margin: number,
  size: number,
  dark: string,
  light: string,
): string {
  const n = m.size;
  const cells = n + 2 * margin;
  let d = '';
  for (let y = 0; y < n; y++) {
    let x = 0;
    while (x < n) {
      if (m.data[y * n + x] !== 1) {
        x++;
        continue;
      }
      let run = 1;
      while (x + run < n && m.data[y * n + x + run] === 1) run++;
      d += `M${x + margin} ${y + margin}.5h${run}`;
      x += run;
    }
  }
  const paint = (attr: 'fill' | 'stroke', hex: string) => {
    const a = parseInt(hex.slice(7, 9), 16);
    return `${attr}="${hex.slice(0, 7)}"${a < 255 ? ` ${attr}-opacity="${(a / 255).toFixed(3)}"` : ''}`;
  };
  const bg =
    parseInt(light.slice(7, 9), 16) === 0 ? '' : `<rect width="${cells}" height="${cells}" ${paint('fill', light)}/>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${cells} ${cells}" shape-rendering="crispEdges">` +
    `${bg}<path ${paint('stroke', dark)} d="${d}"/></svg>`
  );
}
