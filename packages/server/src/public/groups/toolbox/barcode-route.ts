import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { lookupRoute } from '../../platform/lookup-platform.js';
import { BARCODE_TYPES, SYMBOLOGIES, type BarcodeOptions } from './barcode.js';
import { renderBarcode } from './barcode-pool.js';
import { dataUrl, embedUrl, imageAnswerFields, imageJsonReply, newImageCache } from './image-links.js';
import { literalUnion } from '../../../shared/literal-union.js';

const typeList = BARCODE_TYPES.map((t) => `\`${t}\` (${SYMBOLOGIES[t].label}: ${SYMBOLOGIES[t].rule})`).join('; ');

const BarcodeQuery = Type.Object({
  text: Type.String({
    minLength: 1,
    maxLength: 1000,
    description: 'Content to encode; what is allowed depends on `type` (see the description)',
    examples: ['4006381333931'],
  }),
  type: literalUnion(BARCODE_TYPES, { default: 'code128', description: 'Symbology (default code128)' }),
  format: Type.Union([Type.Literal('png'), Type.Literal('svg')], {
    default: 'png',
    description: 'png (default) or svg',
  }),
  scale: Type.Integer({
    minimum: 1,
    maximum: 8,
    default: 3,
    description: 'Pixels per module, the narrowest bar (1–8)',
    examples: [3],
  }),
  height: Type.Integer({
    minimum: 5,
    maximum: 50,
    default: 15,
    description: 'Bar height in millimetres at 72 dpi, linear codes only (5–50)',
    examples: [15],
  }),
  includeText: Type.Boolean({
    default: true,
    description: 'Print the human-readable text under linear codes (true/false)',
  }),
});
type Q = Static<typeof BarcodeQuery>;

const optionsOf = (q: Q): BarcodeOptions => ({
  ...q,
  type: q.type,
  format: q.format as BarcodeOptions['format'],
});

const rules =
  'Numeric codes accept spaces and hyphens as typed on packaging. GS1 codes (EAN-13, EAN-8, UPC-A, UPC-E, ITF-14, ISBN) take the digits without ' +
  'the check digit (it is computed and appended) or with it (it is verified: a wrong one is an error that gives the right one). ' +
  'ISBN-10 is converted to its ISBN-13. 2D codes (Data Matrix, PDF417) carry text beyond Latin-1, such as Chinese, as UTF-8 behind the ECI 26 marker, so scanners read it as UTF-8; Latin-1 text goes as is. Types: ' +
  typeList;

export default async function barcodeRoute(app: FastifyInstance) {
  // One byte-bounded image cache for both routes: the JSON answer and the raw image of a query are the same picture.
  const images = newImageCache();
  const keyOf = (q: Q) => JSON.stringify([q.type, q.format, q.scale, q.height, q.includeText, q.text]);

  lookupRoute(app, {
    path: '/barcode',
    // The answer for a query and base URL is one frozen object kept with its image (imageJsonReply): serialised once.
    stableData: true,
    zh: '生成条形码（Code128、EAN-13、UPC-A 等），校验位自动计算或核对。',
    summary: '条形码生成 Barcode',
    description:
      'Generates a barcode and returns it as a data URL together with `url`, an absolute link to the same image served by `GET /api/barcode/image`. ' +
      'Answers carry Cache-Control and an ETag (304 on If-None-Match). ' +
      rules,
    query: BarcodeQuery,
    data: Type.Object({
      ...imageAnswerFields('/api/barcode/image'),
      type: Type.String({ examples: ['ean13'] }),
      symbology: Type.String({ examples: ['EAN-13'] }),
      text: Type.String({ description: 'What was encoded, check digit included', examples: ['4006381333931'] }),
      input: Type.String({ description: 'The text as given' }),
      checkDigit: Type.Union([Type.String(), Type.Null()], {
        description: 'The check digit computed or verified (GS1 and ISBN types), else null',
      }),
      width: Type.Number({ description: 'Image width in pixels (SVG: user units)' }),
      height: Type.Number({ description: 'Image height in pixels (SVG: user units)' }),
    }),
    handler: (q, req, reply) =>
      imageJsonReply(
        images,
        req,
        reply,
        keyOf(q),
        () => renderBarcode(optionsOf(q)),
        (image, base) => ({
          dataUrl: dataUrl(image.contentType, image.body),
          url: embedUrl(base, '/barcode/image', {
            text: image.text,
            type: q.type,
            format: q.format,
            scale: q.scale,
            height: q.height,
            includeText: q.includeText,
          }),
          type: q.type,
          symbology: SYMBOLOGIES[q.type as BarcodeOptions['type']].label,
          format: q.format,
          contentType: image.contentType.split(';')[0],
          text: image.text,
          input: q.text,
          checkDigit: image.checkDigit,
          width: image.width,
          height: image.height,
        }),
      ),
  });

  lookupRoute(app, {
    path: '/barcode/image',
    zh: '直接返回条形码图片本身（image/png 或 image/svg+xml），参数同 /api/barcode；出错时返回 JSON 信封。',
    media: ['image/png', 'image/svg+xml'],
    summary: '条形码图片 Barcode image',
    description:
      'The barcode image itself (`image/png` or `image/svg+xml`), for `<img src>`; same parameters as `GET /api/barcode`. ' +
      'Success is the raw image (not the JSON envelope) with Cache-Control and an ETag (304 on If-None-Match); errors are the usual JSON envelope with HTTP 500. ' +
      rules,
    query: BarcodeQuery,
    data: Type.Null({ description: 'Not used: a successful answer is the image' }),
    handler: (q, req, reply) => images.reply(req, reply, keyOf(q), () => renderBarcode(optionsOf(q))),
  });
}
