import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { lookupRoute } from '../../platform/lookup-platform.js';
import { paramError } from '../../../errors.js';
import { ACCEPTED_FORMATS } from '../../../engines/color/color-space.js';
import { buildPalette, paletteSnippets } from './palette.js';
import { STEPS } from './tailwind-families.js';

const NAME_PATTERN = '^[a-z][a-z0-9-]{0,31}$';
const strings = (description: string) => Type.Array(Type.String(), { minItems: 11, maxItems: 11, description });

export default async function paletteRoute(app: FastifyInstance) {
  lookupRoute(app, {
    path: '/palette',
    zh: '由一个颜色生成 50–950 的色阶调色板（Tailwind 风格）。',
    summary: '调色板生成 Utility-class palette',
    description:
      'The 11 shades 50, 100, 200 … 900, 950 of a colour in the style of Tailwind CSS, built in OKLCH: each shade follows the lightness curve ' +
      'and chroma profile of the nearest Tailwind v4 family (by hue; a grey such as slate or neutral for greyish colours), keeps the input hue, ' +
      'and is brought into sRGB by reducing chroma only. The input lands on the step nearest its own lightness and that step is the exact input ' +
      '(`inputStep`; neighbouring steps are evened out around it). Lightness strictly decreases from 50 to 950. ' +
      'Returns the shades, a tailwind.config.js snippet (v3), a v4 `@theme` block, CSS variables, class names and usage examples. ' +
      '`name` defaults to the nearest Tailwind family name (e.g. `blue`, which then replaces Tailwind’s own when pasted; pass `name=brand` to avoid that). ' +
      'Alpha is ignored.',
    query: Type.Object({
      color: Type.String({
        minLength: 1,
        maxLength: 100,
        'x-hint': ACCEPTED_FORMATS,
        description: 'The base colour (any CSS colour or Chinese traditional colour name)',
        examples: ['#3b82f6'],
      }),
      name: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 32,
          pattern: NAME_PATTERN,
          'x-hint': '小写字母开头，只含小写字母、数字和 -，最多 32 个字符（如 brand、primary、sea-blue）',
          description: 'Colour name used in the snippets and class names (default: nearest Tailwind family)',
          examples: ['brand'],
        }),
      ),
    }),
    data: Type.Object({
      name: Type.String({ examples: ['brand'] }),
      input: Type.String({ description: 'The colour as given' }),
      hex: Type.String({ description: 'The input colour in hex', examples: ['#3b82f6'] }),
      inputStep: Type.Union(
        STEPS.map((s) => Type.Literal(s)),
        { description: 'The step that is the input colour' },
      ),
      family: Type.String({ description: 'Tailwind family whose curves were followed', examples: ['blue'] }),
      shades: Type.Array(
        Type.Object({
          step: Type.Integer({ examples: [500] }),
          hex: Type.String({ examples: ['#3b82f6'] }),
          rgb: Type.String({ examples: ['rgb(59, 130, 246)'] }),
          oklch: Type.String({ examples: ['oklch(62.31% 0.188 259.81)'] }),
          l: Type.Number({ description: 'OKLCH lightness 0–1' }),
          c: Type.Number({ description: 'OKLCH chroma' }),
          h: Type.Number({ description: 'OKLCH hue, degrees' }),
          isInput: Type.Boolean(),
          textOn: Type.Union([Type.Literal('white'), Type.Literal('black')], {
            description: 'Better text colour on this shade (WCAG contrast)',
          }),
        }),
        { minItems: 11, maxItems: 11 },
      ),
      tailwindConfig: Type.String({ description: 'tailwind.config.js (v3) snippet: theme.extend.colors.<name>' }),
      tailwindV4Css: Type.String({ description: 'Tailwind v4 @theme block: --color-<name>-<step> in OKLCH' }),
      cssVariables: Type.String({ description: ':root block of --<name>-<step> in hex' }),
      classNames: Type.Object({
        bg: strings('bg-<name>-<step>'),
        text: strings('text-<name>-<step>'),
        border: strings('border-<name>-<step>'),
        ring: strings('ring-<name>-<step>'),
      }),
      examples: Type.Array(Type.String(), { description: 'Typical class combinations' }),
    }),
    cache: { maxAge: 86400 },
    handler: (q) => {
      const core = buildPalette(q.color);
      if (!core) throw paramError('color', `无法识别的颜色，支持 ${ACCEPTED_FORMATS}`, q.color);
      const name = q.name ?? core.family;
      return {
        name,
        input: q.color,
        hex: core.hex,
        inputStep: core.step,
        family: core.family,
        shades: core.shades,
        ...paletteSnippets(name, core.shades),
      };
    },
  });
}
