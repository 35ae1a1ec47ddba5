import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { lookupRoute } from '../../platform/lookup-platform.js';
import { dataUrl, embedUrl, imageAnswerFields, imageJsonReply, newImageCache } from './image-links.js';
import { MIN_QR_CONTRAST, QR_BYTE_CAPACITY, renderQrCode, type QrOptions } from '../../../engines/qr/qr-code.js';

const hexHint = 'RRGGBB 或 RRGGBBAA（# 可省略，URL 中写作 %23）';

const QrQuery = Type.Object({
  text: Type.String({
    minLength: 1,
    maxLength: 2000,
    description: `Content to encode (1–2000 characters; UTF-8). What fits depends on the level: at most ${QR_BYTE_CAPACITY.L} bytes at L, ${QR_BYTE_CAPACITY.M} at M, ${QR_BYTE_CAPACITY.Q} at Q, ${QR_BYTE_CAPACITY.H} at H (a Chinese character is 3 bytes; digits-only text fits more).`,
    examples: ['https://example.com'],
  }),
  size: Type.Integer({
    minimum: 64,
    maximum: 2048,
    default: 300,
    description: 'Image width = height in pixels (64–2048). A PNG needs at least one pixel per module.',
    examples: [300],
  }),
  format: Type.Union([Type.Literal('png'), Type.Literal('svg')], {
    default: 'png',
    description: 'png (default) or svg',
  }),
  level: Type.Union([Type.Literal('L'), Type.Literal('M'), Type.Literal('Q'), Type.Literal('H')], {
    default: 'M',
    description:
      'Error correction: L ≈ 7 %, M ≈ 15 % (default), Q ≈ 25 %, H ≈ 30 % of the symbol may be damaged or covered (e.g. by a logo)',
  }),
  margin: Type.Integer({
    minimum: 0,
    maximum: 20,
    default: 4,
    description: 'Quiet zone around the symbol, in modules (0–20; the standard asks for 4)',
    examples: [4],
  }),
  color: Type.String({
    minLength: 6,
    maxLength: 9,
    pattern: '^#?([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$',
    default: '000000',
    'x-hint': hexHint,
    description: `Colour of the dark modules, ${hexHint}`,
    examples: ['1e3a8a'],
  }),
  background: Type.String({
    minLength: 6,
    maxLength: 9,
    pattern: '^#?([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$',
    default: 'ffffff',
    'x-hint': hexHint,
    description: `Background colour, ${hexHint}; ffffff00 is transparent`,
    examples: ['ffffff'],
  }),
});
type Q = Static<typeof QrQuery>;

const optionsOf = (q: Q): QrOptions => ({
  ...q,
  format: q.format as QrOptions['format'],
  level: q.level as QrOptions['level'],
});

/** The canonical parameters of an image, in a fixed order and without `#`, so equal images share one URL. */
const canonical = (q: Q) => ({
  text: q.text,
  size: q.size,
  format: q.format,
  level: q.level,
  margin: q.margin,
  color: q.color.replace(/^#/, '').toLowerCase(),
  background: q.background.replace(/^#/, '').toLowerCase(),
});

const rules =
  `Colours must differ and have a WCAG contrast of at least ${MIN_QR_CONTRAST}:1 (translucent colours composited over white); ` +
  'lower contrast, light-on-dark and a margin under 2 modules are answered with `warnings`. Text that does not fit at the chosen level is an error naming the capacity.';

export default async function qrcodeRoute(app: FastifyInstance) {
  // One byte-bounded image cache for both routes: the JSON answer and the raw image of a query are the same picture.
  const images = newImageCache();
  const keyOf = (q: Q) => JSON.stringify(canonical(q));

  lookupRoute(app, {
    path: '/qrcode',
    // The answer for a query and base URL is one frozen object kept with its image (imageJsonReply): serialised once.
    stableData: true,
    zh: '生成二维码：返回图片地址和 data URL，可设容错级别、尺寸和颜色。',
    summary: '二维码生成 QR code',
    description:
      'Generates a QR code and returns it as a data URL together with `url`, an absolute link to the same image served by ' +
      '`GET /api/qrcode/image` (embed it in `<img src>`). Answers carry Cache-Control and an ETag (304 on If-None-Match). ' +
      rules,
    query: QrQuery,
    data: Type.Object({
      ...imageAnswerFields('/api/qrcode/image'),
      size: Type.Integer({ description: 'Width = height in pixels' }),
      text: Type.String(),
      level: Type.String(),
      margin: Type.Integer(),
      color: Type.String({ examples: ['#000000'] }),
      background: Type.String({ examples: ['#ffffff'] }),
      version: Type.Integer({ description: 'QR version 1–40' }),
      modules: Type.Integer({ description: 'Modules per side without the quiet zone (21 at version 1, 177 at 40)' }),
      contrast: Type.Number({ description: 'WCAG contrast of colour against background' }),
      bytes: Type.Integer({ description: 'Encoded text length in UTF-8 bytes' }),
      warnings: Type.Array(Type.String()),
    }),
    handler: (q, req, reply) =>
      imageJsonReply(
        images,
        req,
        reply,
        keyOf(q),
        () => renderQrCode(optionsOf(q)),
        (image, base) => {
          const c = canonical(q);
          return {
            dataUrl: dataUrl(image.contentType, image.body),
            url: embedUrl(base, '/qrcode/image', c),
            format: q.format,
            contentType: image.contentType.split(';')[0],
            size: image.size,
            text: q.text,
            level: q.level,
            margin: q.margin,
            color: `#${c.color}`,
            background: `#${c.background}`,
            version: image.version,
            modules: image.modules,
            contrast: image.contrast,
            bytes: Buffer.byteLength(q.text, 'utf8'),
            warnings: image.warnings,
          };
        },
      ),
  });

  lookupRoute(app, {
    path: '/qrcode/image',
    zh: '直接返回二维码图片本身（image/png 或 image/svg+xml），参数同 /api/qrcode；出错时返回 JSON 信封。',
    media: ['image/png', 'image/svg+xml'],
    summary: '二维码图片 QR code image',
    description:
      'The QR code image itself (`image/png` or `image/svg+xml`), for `<img src>`; same parameters as `GET /api/qrcode`. ' +
      'Success is the raw image (not the JSON envelope) with Cache-Control and an ETag (304 on If-None-Match); errors are the usual JSON envelope with HTTP 500. ' +
      rules,
    query: QrQuery,
    data: Type.Null({ description: 'Not used: a successful answer is the image' }),
    handler: (q, req, reply) => images.reply(req, reply, keyOf(q), () => renderQrCode(optionsOf(q))),
  });
}
