/**
 * 登录地点: where an address is, as one short text in Chinese and in English, the way RuoYi operators read a sign-in's
 * place (`广东省 深圳市 电信`). Pure: the facts come from an IpRegionProvider (ip-region.ts), the same data as the
 * public ip-region lookup.
 */
import { classifyAddress, localScope } from './ip-address.js';
import { recentAnswers } from '../../shared/memo.js';
import { GREATER_CHINA } from './china-regions.js';
import {
  CHINA_OPERATORS,
  OfflineIpRegionProvider,
  type ChinaCityNames,
  type IpRegionProvider,
  type IpRegionSuccess,
  type IpSources,
} from './ip-region.js';

/** A place in both languages: `{zh: '广东省 深圳市 电信', en: 'Shenzhen, Guangdong (China Telecom)'}`. */
export interface PlaceText {
  zh: string;
  en: string;
}

/** The texts for addresses no database places. */
export const NOWHERE = {
  loopback: { zh: '本机', en: 'This machine' },
  internal: { zh: '内网地址', en: 'Internal network' },
  unknown: { zh: '未知', en: 'Unknown' },
} as const satisfies Record<string, PlaceText>;

type Facts = Pick<IpRegionSuccess, 'country' | 'countryCode' | 'regionName' | 'city' | 'isp'>;

/** China's own operators only (a Chinese database's `阿里巴巴anycast公共DNS` or a foreign AS name would crowd the text). */
const operatorOf = (isp: string) => Object.entries(CHINA_OPERATORS).find(([, o]) => o.zh === isp);

/**
 * The two texts for one place, from its Chinese and English facts. The country is left out in China when the
 * province is known (`广东省 深圳市`); Hong Kong, Macao and Taiwan are their own name (`中国香港`); elsewhere the country
 * comes first in Chinese and last in English (`美国 加利福尼亚州 山景城`, `Mountain View, California, United States`).
 * A city equal to its province (`北京市`) is said once.
 */
export function placeText(zh: Facts, en: Facts): PlaceText {
  const inChina = zh.countryCode === 'CN' && zh.regionName !== '';
  const ownRegion = GREATER_CHINA.has(zh.countryCode) && zh.countryCode !== 'CN';
  const parts = (f: Facts) => ({
    country: inChina ? '' : f.country,
    region: ownRegion ? '' : f.regionName,
    city: f.city === f.regionName ? '' : f.city,
  });
  const z = parts(zh);
  const e = parts(en);
  const operator = operatorOf(zh.isp);
  const enPlace = [e.city, e.region, e.country].filter(Boolean).join(', ');
  return {
    zh: [z.country, z.region, z.city, operator?.[0]].filter(Boolean).join(' '),
    en: operator ? `${enPlace} (${operator[1].en})` : enPlace,
  };
}

/** The place of one address: 本机, 内网地址, the database's place, or 未知 (no such address, or no data). */
export function placeOf(provider: IpRegionProvider, ip: string): PlaceText {
  const scope = localScope(ip);
  if (scope) return NOWHERE[scope];
  const c = classifyAddress(ip);
  if (c.kind !== 'public') return NOWHERE.unknown;
  const zh = provider.lookup(c.address, c.version, 'zh-CN');
  const en = zh && provider.lookup(c.address, c.version, 'en');
  return zh && en ? placeText(zh, en) : NOWHERE.unknown;
}

/** Places kept for repeated addresses (the same few offices and homes sign in all day): ~200 bytes each. */
const RECENT_PLACES = 10_000;

/** A source that answers the question it was just asked again without reading: the English text asks what the Chinese one did. */
function repeating<A extends unknown[], R>(source: { find(...args: A): R }): { find(...args: A): R } {
  let lastKey = '';
  let last: R;
  return {
    find(...args) {
      const key = args.join('|');
      if (key !== lastKey) {
        last = source.find(...args);
        lastKey = key;
      }
      return last;
    },
  };
}

/**
 * placeOf over the Chinese and City databases (not the ASN table: a place names no AS), with the last RECENT_PLACES
 * answers kept, so a page of sign-ins from a few addresses looks each up once.
 */
export function recentPlaces(sources: Required<Pick<IpSources, 'chinese' | 'city'>>, cityNames: ChinaCityNames) {
  const provider = new OfflineIpRegionProvider(
    { chinese: repeating(sources.chinese), city: repeating(sources.city) },
    cityNames,
  );
  return recentAnswers(
    RECENT_PLACES,
    (ip: string) => ip,
    (ip: string) => placeOf(provider, ip),
  );
}
