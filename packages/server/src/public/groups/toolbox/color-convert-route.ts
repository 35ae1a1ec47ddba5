import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { lookupRoute } from '../../platform/lookup-platform.js';
import { convertColor } from '../../../engines/color/color-convert.js';
import { ACCEPTED_FORMATS } from '../../../engines/color/color-space.js';
import { ChineseNameSchema } from '../../shared/schemas.js';

const n = (description?: string) => Type.Number(description ? { description } : {});
const css = Type.String({ description: 'Ready-to-use CSS value' });

const Wcag = Type.Object({
  ratio: Type.Number({ description: 'Contrast ratio 1–21 (floored to two decimals)', examples: [3.67] }),
  aa: Type.Boolean({ description: 'Normal text, AA: ratio ≥ 4.5' }),
  aaLarge: Type.Boolean({ description: 'Large text (≥ 24 px, or ≥ 18.66 px bold), AA: ratio ≥ 3' }),
  aaa: Type.Boolean({ description: 'Normal text, AAA: ratio ≥ 7' }),
  aaaLarge: Type.Boolean({ description: 'Large text, AAA: ratio ≥ 4.5' }),
});

export default async function colorConvertRoute(app: FastifyInstance) {
  lookupRoute(app, {
    path: '/color-convert',
    zh: '颜色格式互转：HEX、RGB、HSL、CMYK 等，并给出最接近的中国传统色。',
    summary: '颜色转换 Colour conversion',
    description:
      'Any CSS colour in (hex with or without `#`, rgb(), hsl(), hwb(), lab(), lch(), oklab(), oklch(), device-cmyk(), color(display-p3 …), CSS named colours, ' +
      'or a Chinese traditional colour name such as 胭脂 or 靛青); out: hex, rgb, hsl, hsv, hwb, cmyk, lab, lch, oklab and oklch with CSS strings, ' +
      'the CSS name when one matches exactly, the nearest Chinese traditional colour name, and the WCAG 2.x contrast against white and black with AA/AAA flags. ' +
      'Colours outside sRGB are gamut-mapped the CSS Color 4 way (`inGamut: false`). lab()/lch() are CIE D50 as in CSS; CMYK is the naive formula, not an ICC profile (CSS Color 5’s for device-cmyk(), to one decimal). Every CSS string printed reads back as the same colour. ' +
      'Hues of greys are 0. Remember to write `#` as `%23` in a URL (or leave it out).',
    query: Type.Object({
      color: Type.String({
        minLength: 1,
        maxLength: 100,
        'x-hint': ACCEPTED_FORMATS,
        description: 'The colour to convert, e.g. #3b82f6, oklch(62.3% 0.214 259.8) or 胭脂',
        examples: ['#3b82f6'],
      }),
    }),
    data: Type.Object({
      input: Type.String(),
      hex: Type.String({ examples: ['#3b82f6'] }),
      hex8: Type.Union([Type.String(), Type.Null()], { description: '#rrggbbaa when translucent, else null' }),
      alpha: Type.Number({ minimum: 0, maximum: 1 }),
      inGamut: Type.Boolean({ description: 'false when the input lay outside sRGB and was mapped into it' }),
      rgb: Type.Object({ r: n('0–255'), g: n('0–255'), b: n('0–255'), css }),
      hsl: Type.Object({ h: n('degrees'), s: n('%'), l: n('%'), css }),
      hsv: Type.Object({ h: n('degrees'), s: n('%'), v: n('%') }),
      hwb: Type.Object({ h: n('degrees'), w: n('%'), b: n('%'), css }),
      cmyk: Type.Object({ c: n('%'), m: n('%'), y: n('%'), k: n('%'), css }),
      lab: Type.Object({ l: n('0–100'), a: n(), b: n(), css }),
      lch: Type.Object({ l: n('0–100'), c: n(), h: n('degrees'), css }),
      oklab: Type.Object({ l: n('0–1'), a: n(), b: n(), css }),
      oklch: Type.Object({ l: n('0–1'), c: n(), h: n('degrees'), css }),
      cssName: Type.Union([Type.String(), Type.Null()], {
        description: 'CSS named colour with exactly this value, else null',
        examples: ['rebeccapurple'],
      }),
      chineseName: ChineseNameSchema,
      contrast: Type.Object({
        white: Wcag,
        black: Wcag,
        better: Type.Union([Type.Literal('white'), Type.Literal('black')], {
          description: 'Which of white or black contrasts more with this colour',
        }),
      }),
    }),
    cache: { maxAge: 86400 },
    handler: (q) => convertColor(q.color),
  });
}
