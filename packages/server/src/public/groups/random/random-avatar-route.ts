import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { lookupRoute } from '../../platform/lookup-platform.js';
import { literalUnion } from '../../../shared/literal-union.js';
import { publicBaseUrl } from '../../../http/public-url.js';
import { renderPng } from '../../shared/svg-png-pool.js';
import {
  AVATAR_SIZE,
  AVATAR_STYLE_KEYS,
  DEFAULT_AVATAR_STYLE,
  avatarLicence,
  randomSeedText,
  renderAvatarSvg,
} from './avatar.js';
import { ImageCache } from '../../shared/image-cache.js';
import { pickOne, rngFor, secureRng } from '../../../shared/rng.js';
import { SeedParam } from '../../shared/schemas.js';

const styleList = AVATAR_STYLE_KEYS.map((s) => {
  const l = avatarLicence(s);
  return `\`${s}\` (${l.title} by ${l.creator}, ${l.license.name})`;
}).join(', ');

const StyleParam = <const T extends readonly string[]>(styles: T) =>
  literalUnion(styles, {
    default: DEFAULT_AVATAR_STYLE,
    description: `DiceBear style; default \`${DEFAULT_AVATAR_STYLE}\` (CC0)${styles.includes('random') ? '; `random` picks one per avatar' : ''}`,
  });
const SizeParam = Type.Integer({
  minimum: AVATAR_SIZE.min,
  maximum: AVATAR_SIZE.max,
  default: AVATAR_SIZE.default,
  description: `Pixels, square (${AVATAR_SIZE.min}–${AVATAR_SIZE.max})`,
});

const AvatarSchema = Type.Object({
  url: Type.String({
    description: 'The avatar image (SVG) served by this service',
    examples: ['https://api.example.com/api/random-avatar/image?style=lorelei&seed=k3v9x0q2m1ab'],
  }),
  svgUrl: Type.String(),
  pngUrl: Type.String(),
  style: Type.String({ examples: ['lorelei'] }),
  seed: Type.String({
    description: 'The seed that draws this avatar; the same style and seed always give the same picture',
    examples: ['k3v9x0q2m1ab'],
  }),
  size: Type.Integer({ examples: [256] }),
  title: Type.String({ description: 'Title of the artwork the style is based on', examples: ['Lorelei'] }),
  creator: Type.String({ examples: ['Lisa Wischofsky'] }),
  source: Type.String(),
  license: Type.Object({ name: Type.String({ examples: ['CC0 1.0'] }), url: Type.String() }),
  attribution: Type.Union([Type.String(), Type.Null()], {
    description: 'Credit to show with the avatar (CC BY 4.0 styles); null when none is required',
  }),
});

/** Rendered avatars kept for repeat requests (an avatar SVG is ~2–10 KB, a 256 px PNG ~5–80 KB). */
const cache = new ImageCache(16 * 1024 * 1024);

export default async function randomAvatarRoute(app: FastifyInstance) {
  lookupRoute(app, {
    path: '/random-avatar',
    zh: '随机生成头像（DiceBear 风格），返回 SVG/PNG 地址与许可信息；seed 相同则头像相同。',
    summary: '随机头像 Random avatar',
    description: [
      'Avatars drawn by DiceBear and served by this service (SVG, and PNG rendered with resvg); nothing is fetched from elsewhere.',
      'The answer links to the image; `<img src>` it directly. The same style and seed always give the same picture.',
      '',
      '- `style`: one of the styles below or `random`; default `lorelei`.',
      `- \`seed\`: the avatar's seed; omitted = a random one (returned). With \`count\` > 1 the seeds are \`seed\`, \`seed-1\`, \`seed-2\`, …`,
      `- \`count\`: 1–100, default 1. \`size\`: ${AVATAR_SIZE.min}–${AVATAR_SIZE.max} px, default ${AVATAR_SIZE.default}.`,
      '',
      `Styles and artwork licences (DiceBear's code is MIT; each style's artwork has its own licence): ${styleList}.`,
      'CC BY 4.0 artwork must be credited where the avatar is shown: every answer carries `license` and, when required, the `attribution` text. Styles with non-standard terms (avataaars, bottts) are not offered.',
    ].join('\n'),
    query: Type.Object({
      style: StyleParam([...AVATAR_STYLE_KEYS, 'random']),
      seed: SeedParam,
      count: Type.Integer({
        minimum: 1,
        maximum: 100,
        default: 1,
        description: 'How many avatars (1–100)',
        examples: [1],
      }),
      size: SizeParam,
    }),
    data: Type.Array(AvatarSchema),
    handler: (q, req) => {
      const base = `${publicBaseUrl(req)}/api/random-avatar/image`;
      const rng = rngFor(q.seed);
      return Array.from({ length: q.count }, (_, i) => {
        const style = q.style === 'random' ? pickOne(rng, AVATAR_STYLE_KEYS) : q.style;
        const seed = q.seed === undefined ? randomSeedText(secureRng) : i === 0 ? q.seed : `${q.seed}-${i}`;
        const url = `${base}?style=${style}&seed=${encodeURIComponent(seed)}${q.size === AVATAR_SIZE.default ? '' : `&size=${q.size}`}`;
        return {
          url,
          svgUrl: `${url}&format=svg`,
          pngUrl: `${url}&format=png`,
          style,
          seed,
          size: q.size,
          ...avatarLicence(style),
        };
      });
    },
  });

  lookupRoute(app, {
    path: '/random-avatar/image',
    zh: '直接返回头像图片本身（image/svg+xml 或 image/png），可用于 <img>；出错时返回 JSON 信封。',
    media: ['image/png', 'image/svg+xml'],
    summary: '头像图片 Avatar image (raw SVG or PNG)',
    description:
      'The avatar itself, for `<img>` tags: `image/svg+xml` (default) or `image/png`. `style` defaults to `lorelei`; `seed` omitted = a random avatar (not cached). ' +
      'Seeded images are cached for a year with an ETag (304 on If-None-Match). Errors are the usual JSON envelope with status 500.',
    query: Type.Object({
      style: StyleParam(AVATAR_STYLE_KEYS),
      seed: SeedParam,
      format: Type.Union([Type.Literal('svg'), Type.Literal('png')], {
        default: 'svg',
        description: 'svg (default) or png',
      }),
      size: SizeParam,
    }),
    data: Type.Null({ description: 'Not used: the answer is the image' }),
    handler: (q, req, reply) => {
      const style = q.style;
      const seed = q.seed ?? randomSeedText(secureRng);
      const key = q.seed === undefined ? undefined : `${style}\u0000${seed}\u0000${q.format}\u0000${q.size}`;
      return cache.reply(req, reply, key, async () => {
        const svg = renderAvatarSvg(style, seed, q.size);
        return q.format === 'png'
          ? { contentType: 'image/png', body: await renderPng(svg, q.size) }
          : { contentType: 'image/svg+xml; charset=utf-8', body: svg };
      });
    },
  });
}
