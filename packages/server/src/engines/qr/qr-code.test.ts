import { describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import { Resvg } from '@resvg/resvg-js';
import { decodePng } from '../../../test/decode-image.js';
import { renderQrCode, type QrOptions } from './qr-code.js';

const base: QrOptions = {
  text: 'https://example.com/天机?id=42',
  size: 256,
  format: 'png',
  level: 'M',
  margin: 4,
  color: '000000',
  background: 'ffffff',
};
const qr = (o: Partial<QrOptions> = {}) => renderQrCode({ ...base, ...o });
const errorOf = (o: Partial<QrOptions>) => {
  try {
    qr(o);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('accepted');
};

describe('QR code', () => {
  it('a PNG scans back to the text, Chinese included, at every level', () => {
    for (const level of ['L', 'M', 'Q', 'H'] as const) {
      const image = qr({ level });
      expect(image.contentType).toBe('image/png');
      const decoded = decodePng(image.body, 'QR_CODE');
      expect(decoded.text).toBe(base.text);
    }
  });

  it('the PNG is exactly size × size pixels in the two colours asked for', () => {
    const image = qr({ size: 301, color: '1e3a8a', background: 'fef3c7' });
    const png = PNG.sync.read(image.body);
    expect([png.width, png.height]).toEqual([301, 301]);
    const colours = new Set<string>();
    for (let i = 0; i < png.data.length; i += 4) colours.add(png.data.subarray(i, i + 3).toString('hex'));
    expect([...colours].sort()).toEqual(['1e3a8a', 'fef3c7']);
    // The quiet zone is background: the top-left pixel lies in the margin.
    expect(png.data.subarray(0, 3).toString('hex')).toBe('fef3c7');
    expect(decodePng(image.body, 'QR_CODE').text).toBe(base.text);
  });

  it('a transparent background stays transparent and still scans over white', () => {
    const image = qr({ background: 'ffffff00' });
    const png = PNG.sync.read(image.body);
    expect(png.data[3]).toBe(0); // alpha of the top-left (margin) pixel
    expect(decodePng(image.body, 'QR_CODE').text).toBe(base.text);
  });

  it('an SVG has the requested size, a viewBox in modules and one path of dark modules that renders back to the code', () => {
    const image = qr({ format: 'svg', size: 400, margin: 2 });
    const svg = image.body.toString();
    expect(image.contentType).toBe('image/svg+xml; charset=utf-8');
    const cells = image.modules + 4;
    expect(svg).toMatch(
      new RegExp(`^<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 ${cells} ${cells}"`),
    );
    expect(svg).toContain('<path stroke="#000000" d="M');
    // Rasterised (resvg), the SVG scans back to the text.
    const png = Buffer.from(new Resvg(svg, { font: { loadSystemFonts: false } }).render().asPng());
    expect(decodePng(png, 'QR_CODE').text).toBe(base.text);
  });

  it('the version grows with the text and the level', () => {
    expect(qr({ text: 'hi', level: 'L' }).version).toBe(1);
    expect(qr({ text: 'hi', level: 'L' }).modules).toBe(21);
    expect(qr({ text: 'x'.repeat(300), level: 'H' }).version).toBeGreaterThan(
      qr({ text: 'x'.repeat(300), level: 'L' }).version,
    );
  });

  it('text beyond the capacity of the level is an error that names the capacity and the lower levels', () => {
    const msg = errorOf({ text: '汉'.repeat(500), level: 'H' }); // 1500 bytes > 1273
    expect(msg).toContain('参数 text 无效：内容过长：纠错等级 H（约 30%）最多容纳 1273 字节');
    expect(msg).toContain('该内容 1500 字节');
    expect(msg).toContain('L 最多 2953 字节');
    expect(qr({ text: '汉'.repeat(500), level: 'L', size: 1024 }).version).toBeGreaterThan(20); // the same text fits at L
  });

  it('refuses identical or low-contrast colours, and warns about weak but usable ones', () => {
    expect(errorOf({ color: '336699', background: '#336699' })).toContain('前景色与背景色 background 相同');
    expect(errorOf({ color: 'bbbbbb', background: 'ffffff' })).toMatch(/对比度只有 1\.\d\d:1，至少需要 2:1/);
    expect(qr({ color: '888888' }).warnings[0]).toContain('对比度');
    expect(qr({ color: 'ffffff', background: '000000' }).warnings.join()).toContain('反色');
    expect(qr({ margin: 0 }).warnings.join()).toContain('留白');
    expect(qr().warnings).toEqual([]);
  });

  it('bad colour notation and a PNG too small for the symbol are parameter errors', () => {
    expect(errorOf({ color: 'red' })).toContain('参数 color 无效：应为十六进制颜色 RRGGBB 或 RRGGBBAA');
    const msg = errorOf({ text: 'x'.repeat(1500), level: 'L', size: 64 });
    expect(msg).toMatch(/参数 size 无效：该内容的二维码为 \d+×\d+ 模块（加留白共 \d+），PNG 的 size 至少为 \d+ 像素/);
    // SVG scales freely, so the same symbol is fine as SVG.
    expect(qr({ text: 'x'.repeat(1500), level: 'L', size: 64, format: 'svg' }).size).toBe(64);
  });
});
