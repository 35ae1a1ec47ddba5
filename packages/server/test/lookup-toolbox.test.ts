/**
 * HTTP tests of the toolbox endpoints (QR code, barcode, colour conversion, palette) and random-color: shapes,
 * bounds, error messages, embeddable images with caching, data URLs that decode to real images.
 */
import { describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import { decodePng } from './decode-image.js';
import { getTestInstance, useTestApp } from './helpers.js';

const PNG_MAGIC = '89504e47';

const t = useTestApp('sqlite');

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });
const ok = async (url: string) => {
  const res = await get(url);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  const body = res.json();
  expect(body).toMatchObject({ code: 200, msg: '请求成功' });
  return body.data;
};
const failMsg = async (url: string) => {
  const res = await get(url);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(500);
  const body = res.json();
  expect(body).toMatchObject({ code: 500, data: null });
  return body.msg as string;
};
const fromDataUrl = (dataUrl: string) => {
  const m = /^data:([^;]+);base64,(.+)$/.exec(dataUrl);
  expect(m, dataUrl.slice(0, 40)).not.toBeNull();
  return { type: m![1], body: Buffer.from(m![2], 'base64') };
};

describe('GET /api/qrcode', () => {
  it('returns a PNG data URL that scans back to the text, and an absolute link to the same image', async () => {
    const data = await ok(`/api/qrcode?text=${encodeURIComponent('你好，天机 https://example.com')}&size=256`);
    expect(data).toMatchObject({
      format: 'png',
      contentType: 'image/png',
      size: 256,
      level: 'M',
      margin: 4,
      color: '#000000',
      background: '#ffffff',
      warnings: [],
    });
    const img = fromDataUrl(data.dataUrl);
    expect(img.type).toBe('image/png');
    expect(img.body.subarray(0, 4).toString('hex')).toBe(PNG_MAGIC);
    expect(decodePng(img.body, 'QR_CODE').text).toBe('你好，天机 https://example.com');
    expect(data.url).toMatch(/^http:\/\/localhost(:\d+)?\/api\/qrcode\/image\?text=/);

    const raw = await get(data.url.replace(/^http:\/\/[^/]+/, ''));
    expect(raw.statusCode).toBe(200);
    expect(raw.headers['content-type']).toBe('image/png');
    expect(raw.rawPayload.equals(img.body)).toBe(true);
  });

  it('serves the image with caching: ETag, Cache-Control and 304 on If-None-Match', async () => {
    const url = '/api/qrcode/image?text=cache-me&size=128';
    const first = await get(url);
    expect(first.headers['cache-control']).toMatch(/public, max-age=\d+/);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^".+"$/);
    const again = await get(url, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(first.headers['access-control-allow-origin']).toBe('*');
    // RFC 9110: a weak tag or one tag of a list matches too (what browsers and proxies send back).
    for (const inm of [`W/${etag}`, `"other", ${etag}`])
      expect((await get(url, { 'if-none-match': inm })).statusCode, inm).toBe(304);

    const json = await get('/api/qrcode?text=cache-me&size=128');
    const jsonEtag = String(json.headers.etag);
    expect(jsonEtag).not.toBe(etag); // the JSON also depends on the public base URL
    expect((await get('/api/qrcode?text=cache-me&size=128', { 'if-none-match': jsonEtag })).statusCode).toBe(304);
    expect((await get('/api/qrcode?text=cache-me&size=128', { 'if-none-match': `W/${jsonEtag}` })).statusCode).toBe(
      304,
    );
    expect(
      (await get('/api/qrcode?text=cache-me&size=128', { 'if-none-match': jsonEtag, host: 'other.example' }))
        .statusCode,
    ).toBe(200);
  });

  it('serves SVG too, with the colours asked for (# optional, %23 accepted)', async () => {
    const res = await get('/api/qrcode/image?text=svg&format=svg&color=%231e3a8a&background=fef3c7&size=200');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(res.body).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="200" height="200"/);
    expect(res.body).toContain('stroke="#1e3a8a"');
    expect(res.body).toContain('fill="#fef3c7"');
    const data = await ok('/api/qrcode?text=svg&format=svg');
    expect(fromDataUrl(data.dataUrl).body.toString()).toMatch(/^<svg /);
  });

  it('uses PUBLIC_BASE_URL for links when configured', async () => {
    const other = await getTestInstance('sqlite', { PUBLIC_BASE_URL: 'https://api.example.cn/' });
    try {
      const res = await other.app.inject('/api/qrcode?text=x');
      expect(res.json().data.url).toMatch(
        /^https:\/\/api\.example\.cn\/api\/qrcode\/image\?text=x&size=300&format=png&level=M&margin=4&color=000000&background=ffffff$/,
      );
    } finally {
      await other.close();
    }
  });

  it('links differ per (trusted) Host: the cached answer of one host is not served to another', async () => {
    const a = await get('/api/qrcode?text=host-test', { host: 'localhost:3000' });
    const b = await get('/api/qrcode?text=host-test', { host: '127.0.0.1:3000' });
    expect(a.json().data.url).toMatch(/^http:\/\/localhost:3000\//);
    expect(b.json().data.url).toMatch(/^http:\/\/127\.0\.0\.1:3000\//);
  });

  it('rejects out-of-range and malformed parameters with messages that name them', async () => {
    expect(await failMsg('/api/qrcode')).toBe('参数 text 无效：缺少必填参数');
    expect(await failMsg('/api/qrcode?text=a&size=32')).toBe('参数 size 无效：超出范围：应为 64 至 2048，收到 "32"');
    expect(await failMsg('/api/qrcode?text=a&margin=21')).toContain('参数 margin 无效');
    expect(await failMsg('/api/qrcode?text=a&level=X')).toBe('参数 level 无效：应为以下之一：L, M, Q, H，收到 "X"');
    expect(await failMsg('/api/qrcode?text=a&color=red')).toContain('参数 color 无效：应为 RRGGBB 或 RRGGBBAA');
    expect(await failMsg('/api/qrcode/image?text=a&color=000000&background=000000')).toContain(
      '前景色与背景色 background 相同',
    );
    expect(await failMsg(`/api/qrcode?text=${'x'.repeat(2001)}`)).toContain('长度应为 1 至 2000 个字符');
    expect(await failMsg(`/api/qrcode?level=H&text=${encodeURIComponent('汉'.repeat(600))}`)).toContain(
      '纠错等级 H（约 30%）最多容纳 1273 字节',
    );
  });
});

describe('GET /api/barcode', () => {
  it('computes the EAN-13 check digit and the image scans back to the full number', async () => {
    const data = await ok('/api/barcode?text=400638133393&type=ean13');
    expect(data).toMatchObject({
      type: 'ean13',
      symbology: 'EAN-13',
      text: '4006381333931',
      input: '400638133393',
      checkDigit: '1',
      format: 'png',
    });
    const img = fromDataUrl(data.dataUrl);
    expect(img.body.subarray(0, 4).toString('hex')).toBe(PNG_MAGIC);
    const png = PNG.sync.read(img.body);
    expect([png.width, png.height]).toEqual([data.width, data.height]);
    expect(decodePng(img.body, 'EAN_13').text).toBe('4006381333931');
    expect(data.url).toMatch(
      /\/api\/barcode\/image\?text=4006381333931&type=ean13&format=png&scale=3&height=15&includeText=true$/,
    );
  });

  it('says which check digit is right when the given one is wrong', async () => {
    expect(await failMsg('/api/barcode?text=4006381333934&type=ean13')).toBe(
      '参数 text 无效：EAN-13 校验位应为 1，末位却是 4（正确编码为 4006381333931；只传前 12 位可自动计算），收到 "4006381333934"',
    );
    expect(await failMsg('/api/barcode?text=12AB&type=ean8')).toContain('EAN-8 只能包含数字 0–9（第 3 位是 "A"）');
    expect(await failMsg('/api/barcode?text=hello&type=code39')).toContain('小写字母请改为大写');
    expect(await failMsg('/api/barcode?text=x&type=qr')).toContain('参数 type 无效：应为以下之一：code128, ean13');
    expect(await failMsg('/api/barcode?text=x&scale=9')).toBe('参数 scale 无效：超出范围：应为 1 至 8，收到 "9"');
  });

  it('serves Code 128 as a raw PNG and as SVG', async () => {
    const png = await get('/api/barcode/image?text=TIANJI-2026');
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.rawPayload.subarray(0, 4).toString('hex')).toBe(PNG_MAGIC);
    expect(decodePng(png.rawPayload, 'CODE_128').text).toBe('TIANJI-2026');
    expect(png.headers.etag).toBeDefined();
    const svg = await get('/api/barcode/image?text=TIANJI-2026&format=svg&includeText=false');
    expect(svg.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(svg.body).toMatch(/^<svg width="\d+" height="\d+" viewBox=/);
  });

  it('draws 2D symbols and reports an over-capacity text as a parameter error', async () => {
    const dm = await ok(`/api/barcode?type=datamatrix&text=${encodeURIComponent('https://example.com/a?b=c')}`);
    expect(decodePng(fromDataUrl(dm.dataUrl).body, 'DATA_MATRIX').text).toBe('https://example.com/a?b=c');
    expect(dm.checkDigit).toBeNull();
    expect(await failMsg(`/api/barcode?type=pdf417&text=${encodeURIComponent('汉'.repeat(800))}`)).toContain(
      '无法编码为 PDF417',
    );
  });
});

describe('GET /api/color-convert', () => {
  it('converts a colour into every notation with WCAG contrast', async () => {
    const data = await ok('/api/color-convert?color=%233b82f6');
    expect(data).toMatchObject({ hex: '#3b82f6', rgb: { r: 59, g: 130, b: 246 }, inGamut: true });
    expect(Object.keys(data).sort()).toEqual(
      [
        'alpha',
        'chineseName',
        'cmyk',
        'contrast',
        'cssName',
        'hex',
        'hex8',
        'hsl',
        'hsv',
        'hwb',
        'input',
        'inGamut',
        'lab',
        'lch',
        'oklab',
        'oklch',
        'rgb',
      ].sort(),
    );
    expect(data.contrast).toMatchObject({
      better: 'black',
      white: { ratio: 3.67, aa: false, aaLarge: true },
      black: { ratio: 5.7, aa: true },
    });
    expect(data.oklch.css).toMatch(/^oklch\(62\.\d+% 0\.\d+ 259\.\d+\)$/);
  });

  it('reads oklch(), named and Chinese colours; caches the answer', async () => {
    expect((await ok(`/api/color-convert?color=${encodeURIComponent('oklch(62.8% 0.2577 29.23)')}`)).hex).toBe(
      '#ff0000',
    );
    expect((await ok('/api/color-convert?color=rebeccapurple')).cssName).toBe('rebeccapurple');
    const yanzhi = await ok(`/api/color-convert?color=${encodeURIComponent('胭脂')}`);
    expect(yanzhi).toMatchObject({ hex: '#9d2933', chineseName: { name: '胭脂', pinyin: 'yān zhī', deltaE: 0 } });
    const res = await get('/api/color-convert?color=teal');
    expect(res.headers.etag).toBeDefined();
    expect((await get('/api/color-convert?color=teal', { 'if-none-match': String(res.headers.etag) })).statusCode).toBe(
      304,
    );
  });

  it('an unknown colour names the accepted formats', async () => {
    const msg = await failMsg('/api/color-convert?color=bluish');
    expect(msg).toMatch(/^参数 color 无效：无法识别的颜色，支持 十六进制/);
    expect(msg).toContain('收到 "bluish"');
    expect(await failMsg('/api/color-convert')).toBe('参数 color 无效：缺少必填参数');
  });
});

describe('GET /api/palette', () => {
  it('builds 11 shades with Tailwind blue-500 on step 500, and paste-ready snippets', async () => {
    const data = await ok('/api/palette?color=3b82f6&name=brand');
    expect(data).toMatchObject({ name: 'brand', hex: '#3b82f6', inputStep: 500, family: 'blue' });
    expect(data.shades.map((s: { step: number }) => s.step)).toEqual([
      50, 100, 200, 300, 400, 500, 600, 700, 800, 900, 950,
    ]);
    expect(data.shades[5]).toMatchObject({ hex: '#3b82f6', isInput: true });
    for (let i = 1; i < 11; i++) expect(data.shades[i].l).toBeLessThan(data.shades[i - 1].l);
    expect(data.tailwindConfig).toContain("500: '#3b82f6',");
    expect(data.tailwindV4Css).toContain('--color-brand-500: oklch(');
    expect(data.cssVariables).toContain('--brand-500: #3b82f6;');
    expect(data.classNames.bg[0]).toBe('bg-brand-50');
    expect(data.examples.length).toBeGreaterThan(0);
  });

  it('names the palette after the nearest Tailwind family by default and validates the name', async () => {
    expect((await ok('/api/palette?color=%23ef4444')).name).toBe('red');
    expect(await failMsg('/api/palette?color=red&name=Brand')).toContain('参数 name 无效：应为 小写字母开头');
    expect(await failMsg('/api/palette?color=nope')).toContain('参数 color 无效：无法识别的颜色');
  });
});

describe('GET /api/random-color', () => {
  it('gives hex, rgb, hsl and a Chinese name when one is close', async () => {
    const data = await ok('/api/random-color?count=20&seed=demo');
    expect(data).toMatchObject({ format: 'all', seeded: true });
    expect(data.colors).toHaveLength(20);
    for (const c of data.colors) {
      expect(c.hex).toMatch(/^#[0-9a-f]{6}$/);
      expect(c.rgb).toMatch(/^rgb\(/);
      expect(c.hsl).toMatch(/^hsl\(/);
      if (c.name) expect(c.name.deltaE).toBeLessThanOrEqual(5);
    }
    expect((await ok('/api/random-color?count=20&seed=demo')).colors).toEqual(data.colors);
  });

  it('defaults to one unseeded colour and honours format', async () => {
    const one = await ok('/api/random-color');
    expect(one.colors).toHaveLength(1);
    expect(one.seeded).toBe(false);
    const hex = await ok('/api/random-color?format=hex&count=3');
    for (const c of hex.colors) expect(Object.keys(c).sort()).toEqual(['hex', 'name']);
    expect(await failMsg('/api/random-color?count=101')).toBe('参数 count 无效：超出范围：应为 1 至 100，收到 "101"');
    expect(await failMsg('/api/random-color?format=cmyk')).toContain(
      '参数 format 无效：应为以下之一：all, hex, rgb, hsl',
    );
  });
});

describe('OpenAPI', () => {
  it('documents the toolbox routes under the toolbox tag with examples', async () => {
    const doc = (await get('/openapi.json')).json();
    for (const path of [
      '/api/qrcode',
      '/api/qrcode/image',
      '/api/barcode',
      '/api/barcode/image',
      '/api/color-convert',
      '/api/palette',
    ]) {
      expect(doc.paths[path]?.get?.tags, path).toEqual(['工具箱 Toolbox']);
    }
    expect(doc.paths['/api/random-color'].get.tags).toEqual(['随机生成 Random']);
    const qrParams = doc.paths['/api/qrcode'].get.parameters as Array<{
      name: string;
      schema: { examples?: unknown[] };
    }>;
    expect(qrParams.map((p) => p.name).sort()).toEqual([
      'background',
      'color',
      'format',
      'level',
      'margin',
      'size',
      'text',
    ]);
  });
});
