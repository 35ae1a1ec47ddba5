import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { lookupRoute } from '../../platform/lookup-platform.js';
import { publicBaseUrl } from '../../../http/public-url.js';
import { renderPng } from '../../shared/svg-png-pool.js';
import { randomSeedText } from './avatar.js';
import { ImageCache } from '../../shared/image-cache.js';
import {
  GRADIENT_STYLES,
  IMAGE_SIZE,
  IMAGE_TYPES,
  PATTERN_STYLES,
  renderRandomImage,
  typeForSeed,
} from './random-image.js';
import { secureRng } from '../../../shared/rng.js';
import { SeedParam } from '../../shared/schemas.js';
import { literalUnion } from '../../../shared/literal-union.js';

const Width = Type.Integer({
  minimum: IMAGE_SIZE.min,
  maximum: IMAGE_SIZE.max,
  default: IMAGE_SIZE.defaultWidth,
  description: `Pixels (${IMAGE_SIZE.min}–${IMAGE_SIZE.max})`,
  examples: [800],
});
const Height = Type.Integer({
  minimum: IMAGE_SIZE.min,
  maximum: IMAGE_SIZE.max,
  default: IMAGE_SIZE.defaultHeight,
  description: `Pixels (${IMAGE_SIZE.min}–${IMAGE_SIZE.max})`,
  examples: [600],
});
const TypeParam = Type.Optional(
  literalUnion(IMAGE_TYPES, { description: 'gradient or pattern; omitted = chosen by the seed' }),
);
const Format = Type.Union([Type.Literal('png'), Type.Literal('svg')], {
  default: 'png',
  description: 'png (default) or svg',
});

const ImageSchema = Type.Object({
  url: Type.String({
    description: 'The image, in the requested format, served by this service',
    examples: [
      'https://api.example.com/api/random-image/image?width=800&height=600&seed=q8d2m0x7c1ve&type=pattern&format=png',
    ],
  }),
  svgUrl: Type.String(),
  pngUrl: Type.String(),
  width: Type.Integer({ examples: [800] }),
  height: Type.Integer({ examples: [600] }),
  seed: Type.String({ examples: ['q8d2m0x7c1ve'] }),
  type: literalUnion(IMAGE_TYPES),
  format: Type.Union([Type.Literal('png'), Type.Literal('svg')], { description: 'Format of `url`' }),
  style: Type.String({
    description: `Gradient: ${GRADIENT_STYLES.join(', ')}; pattern: ${PATTERN_STYLES.join(', ')}`,
    examples: ['truchet'],
  }),
  colors: Type.Array(Type.String({ pattern: '^#[0-9a-f]{6}$' }), {
    description: 'The palette',
    examples: [['#3b7dd8', '#41c1c9', '#e0a43a']],
  }),
});

/** Seeded images kept for repeat requests: a large PNG is a few MB, so the bound is in bytes. */
const cache = new ImageCache(32 * 1024 * 1024);

export default async function randomImageRoute(app: FastifyInstance) {
  lookupRoute(app, {
    path: '/random-image',
    zh: '随机生成抽象图片，返回 SVG/PNG 地址；seed 相同则图片相同。',
    summary: '随机图片 Random image',
    description: [
      'Generated placeholder images — a colour gradient (linear, radial, aurora) or a geometric pattern (dots, triangles, truchet, stripes, mosaic) in a harmonious palette —',
      'drawn by this service as SVG and rendered to PNG with resvg. The answer links to the image; the same seed, size and type always give the same picture.',
      '',
      `- \`width\`, \`height\`: ${IMAGE_SIZE.min}–${IMAGE_SIZE.max} px, default ${IMAGE_SIZE.defaultWidth}×${IMAGE_SIZE.defaultHeight}.`,
      '- `type`: `gradient` or `pattern`; omitted = chosen by the seed. `format`: format of `url`, `png` (default) or `svg` (both URLs are always given).',
      '- `seed`: omitted = random (returned). With `count` > 1 the seeds are `seed`, `seed-1`, `seed-2`, … `count`: 1–100, default 1.',
    ].join('\n'),
    query: Type.Object({
      width: Width,
      height: Height,
      type: TypeParam,
      format: Format,
      seed: SeedParam,
      count: Type.Integer({
        minimum: 1,
        maximum: 100,
        default: 1,
        description: 'How many images (1–100)',
        examples: [1],
      }),
    }),
    data: Type.Array(ImageSchema),
    handler: (q, req) => {
      const base = `${publicBaseUrl(req)}/api/random-image/image`;
      return Array.from({ length: q.count }, (_, i) => {
        const seed = q.seed === undefined ? randomSeedText(secureRng) : i === 0 ? q.seed : `${q.seed}-${i}`;
        const type = q.type ?? typeForSeed(seed);
        // Drawing the SVG is cheap (no rasterising here) and tells the caller the style and palette.
        const { style, colors } = renderRandomImage(seed, q.width, q.height, type);
        const link = `${base}?width=${q.width}&height=${q.height}&seed=${encodeURIComponent(seed)}&type=${type}`;
        const svgUrl = `${link}&format=svg`;
        const pngUrl = `${link}&format=png`;
        return {
          url: q.format === 'svg' ? svgUrl : pngUrl,
          svgUrl,
          pngUrl,
          width: q.width,
          height: q.height,
          seed,
          type,
          format: q.format as 'png' | 'svg',
          style,
          colors,
        };
      });
    },
  });

  lookupRoute(app, {
    path: '/random-image/image',
    zh: '直接返回随机图片本身（image/png 或 image/svg+xml），可用于 <img>；出错时返回 JSON 信封。',
    media: ['image/png', 'image/svg+xml'],
    summary: '随机图片文件 Random image (raw PNG or SVG)',
    description:
      'The generated image itself, for `<img>` tags: `image/png` (default) or `image/svg+xml`. `seed` omitted = a random image (not cached). ' +
      'Seeded images are cached for a year with an ETag (304 on If-None-Match). PNG rendering runs on worker threads; a 2048×2048 PNG (the largest; bounded so that rendering stays within the memory budget) takes about a quarter of a second. ' +
      'Errors are the usual JSON envelope with status 500.',
    query: Type.Object({ width: Width, height: Height, type: TypeParam, format: Format, seed: SeedParam }),
    data: Type.Null({ description: 'Not used: the answer is the image' }),
    handler: (q, req, reply) => {
      const seed = q.seed ?? randomSeedText(secureRng);
      const type = q.type ?? typeForSeed(seed);
      const key = q.seed === undefined ? undefined : [seed, q.width, q.height, type, q.format].join('\u0000');
      return cache.reply(req, reply, key, async () => {
        const { svg } = renderRandomImage(seed, q.width, q.height, type);
        return q.format === 'svg'
          ? { contentType: 'image/svg+xml; charset=utf-8', body: svg }
          : { contentType: 'image/png', body: await renderPng(svg) };
      });
    },
  });
}
