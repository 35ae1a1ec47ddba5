import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import lunarJs from 'lunar-javascript';
import { RawReply, lookupRoute } from '../../platform/lookup-platform.js';
import { publicBaseUrl } from '../../../http/public-url.js';
import { isSafeLink } from '../../../catalogue/safe-link.js';
import { renderPng } from '../../shared/svg-png-pool.js';
import { secureRng } from '../../../shared/rng.js';
import { DailyQuery, resolveDate } from '../../shared/daily-query.js';
import { renderWallpaperSvg } from './wallpaper-art.js';

const SIZES = { desktop: { width: 1920, height: 1080 }, phone: { width: 1080, height: 1920 } } as const;
type Device = keyof typeof SIZES;

const Device = Type.Union([Type.Literal('desktop'), Type.Literal('phone')], {
  default: 'desktop',
  description: 'desktop 1920×1080 or phone 1080×1920',
});

export default async function wallpaperRoutes(app: FastifyInstance) {
  lookupRoute(app, {
    path: '/wallpaper',
    zh: '每日壁纸：当天人人相同，可指定日期；返回图片地址、标题和版权信息。',
    summary: '每日壁纸 Wallpaper of the day',
    description:
      'The day’s wallpaper. An operator’s wallpaper for that date (content library “每日壁纸”) wins; otherwise a generated landscape artwork, deterministic per date ' +
      '(palette and composition from the date; title from the solar term in force), served by this service as PNG or SVG at desktop (1920×1080) and phone (1080×1920) sizes. ' +
      '`random=true` draws a fresh artwork (its seed is in the URLs).',
    query: Type.Object({ ...DailyQuery, device: Device }),
    data: Type.Object({
      date: Type.String(),
      title: Type.String(),
      description: Type.String(),
      url: Type.String({ description: 'PNG image URL' }),
      svgUrl: Type.Union([Type.String(), Type.Null()], { description: 'SVG URL (generated artwork only)' }),
      width: Type.Integer(),
      height: Type.Integer(),
      copyright: Type.String(),
      source: Type.Union([Type.Literal('generated'), Type.Literal('library')]),
    }),
    handler: (q, req) => {
      const date = resolveDate(q.date);
      const device = q.device as Device;
      // A link stored before links were checked is never served: that day gets the generated artwork instead.
      const own = !q.random && app.content.items('wallpapers').find((w) => w.date === date && isSafeLink(w.url));
      if (own) {
        const url = own.url.startsWith('/') ? publicBaseUrl(req) + own.url : own.url;
        return {
          date,
          title: own.title,
          description: own.description,
          url,
          svgUrl: null,
          width: own.width,
          height: own.height,
          copyright: own.copyright,
          source: 'library' as const,
        };
      }
      const seed = q.random ? `r${secureRng.int(2 ** 32).toString(36)}` : date;
      const { width, height } = SIZES[device];
      const { palette } = renderWallpaperSvg(seed, width, height);
      const [y, m, d] = date.split('-').map(Number);
      const term = lunarJs.Solar.fromYmd(y, m, d).getLunar().getPrevJieQi(true).getName();
      const image = `${publicBaseUrl(req)}/api/wallpaper/image?seed=${encodeURIComponent(seed)}&device=${device}`;
      return {
        date,
        title: `${term} · ${palette}山水`,
        description: `生成艺术：${palette}色调的层峦与${palette === '月白' ? '月' : '日'}，${date} 专属，每天一幅。Generated landscape in the ${palette} palette.`,
        url: `${image}&format=png`,
        svgUrl: `${image}&format=svg`,
        width,
        height,
        copyright: 'tianji generated artwork, CC0 1.0',
        source: 'generated' as const,
      };
    },
  });

  lookupRoute(app, {
    path: '/wallpaper/image',
    zh: '直接返回当日壁纸图片本身（image/png 或 image/svg+xml）；出错时返回 JSON 信封。',
    media: ['image/png', 'image/svg+xml'],
    summary: '壁纸图片 Wallpaper image (raw PNG or SVG)',
    description: 'The generated artwork itself, for <img> tags. Same seed, same picture; cached for a year.',
    query: Type.Object({
      seed: Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'A date (YYYY-MM-DD) or the seed from /api/wallpaper',
        examples: ['2026-11-21'],
      }),
      device: Device,
      format: Type.Union([Type.Literal('png'), Type.Literal('svg')], { default: 'png' }),
    }),
    data: Type.Null({ description: 'Not used: the answer is the image' }),
    cache: { maxAge: 365 * 86400 },
    handler: async (q) => {
      const { width, height } = SIZES[q.device as Device];
      const { svg } = renderWallpaperSvg(q.seed, width, height);
      return q.format === 'svg' ? new RawReply('image/svg+xml', svg) : new RawReply('image/png', await renderPng(svg));
    },
  });
}
