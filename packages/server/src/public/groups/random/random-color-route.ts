import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { lookupRoute } from '../../platform/lookup-platform.js';
import { NAME_THRESHOLD } from '../../../engines/color/chinese-colors.js';
import { rngFor } from '../../../shared/rng.js';
import { COLOR_FORMATS, randomColor } from './random-color.js';
import { AsciiText, SeedParam, ChineseNameSchema } from '../../shared/schemas.js';
import { literalUnion } from '../../../shared/literal-union.js';

export default async function randomColorRoute(app: FastifyInstance) {
  lookupRoute(app, {
    path: '/random-color',
    zh: '随机生成颜色，给出 HEX、RGB、HSL 以及最接近的中国传统色名。',
    summary: '随机颜色 Random colour',
    description:
      'Colours drawn uniformly from all 16,777,216 sRGB colours (cryptographically secure unless `seed` is given; the same seed, count and format ' +
      `give the same colours). Each colour carries the nearest Chinese traditional colour name when it is within CIEDE2000 ΔE ≤ ${NAME_THRESHOLD} ` +
      '(roughly "the same colour, a slightly different shade"; about a third of random colours get one), else `name: null`. ' +
      '`format` picks the notation: hex, rgb, hsl, or all three (default).',
    query: Type.Object({
      format: literalUnion(COLOR_FORMATS, { default: 'all', description: 'all (default), hex, rgb or hsl' }),
      count: Type.Integer({
        minimum: 1,
        maximum: 100,
        default: 1,
        description: 'How many colours (1–100)',
        examples: [5],
      }),
      seed: SeedParam,
    }),
    data: Type.Object({
      colors: Type.Array(
        Type.Object({
          hex: Type.Optional(AsciiText({ examples: ['#9d2933'] })),
          rgb: Type.Optional(AsciiText({ examples: ['rgb(157, 41, 51)'] })),
          hsl: Type.Optional(AsciiText({ examples: ['hsl(355.3, 58.6%, 38.8%)'] })),
          name: ChineseNameSchema,
        }),
      ),
      format: Type.String({ examples: ['all'] }),
      seeded: Type.Boolean({ description: 'true when the output is reproducible from `seed`' }),
    }),
    handler: (q) => {
      const rng = rngFor(q.seed);
      const format = q.format;
      return { colors: Array.from({ length: q.count }, () => randomColor(rng, format)), format, seeded: rng.seeded };
    },
  });
}
