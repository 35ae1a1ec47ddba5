/**
 * IP → region, shaped like ip-api.com's answer. Pure: the databases come in as sources (ip-region-sources.ts),
 * so tests can hand in their own.
 *
 * One place per answer. Coordinates, time zone, region and city always describe the same place, at the level the
 * data supports, and `accuracy` says which level that is (`city`, `region`, `country`):
 * - China, Hong Kong, Macao, Taiwan: the place is the Chinese database's (province and city, official names via
 *   the province table and data/postcodes.json: `广东` → `广东省`, `深圳` → `深圳市`). Its coordinates are the City
 *   database's when that names the same city (pinyin compared), else the gazetteer's (country-state-city) for that
 *   city; a city neither knows is dropped and the answer is the province, at the City database's point when it
 *   is a province-level record of the same province, else the provincial capital's;
 * - elsewhere: the place is the City database's record (coordinates, time zone, region, city, postcode), named as
 *   that record names it (its Chinese names where it has them, else its English ones); with no City record the
 *   answer is the country, at the gazetteer's centre. The Chinese database's foreign names are not used: it often
 *   places an address in another state or city than the City record (弗吉尼亚州 for Elk Grove Village, Illinois),
 *   and nothing offline says which of its Chinese names are the record's place (issue 50);
 * - `timezone` is the City record's zone, else the country's only zone, else the zone the point lies in (never empty);
 * - `region` is the ISO 3166-2 subdivision code (the City database's, else the gazetteer's for the name);
 * - `as` and the English `isp`/`org`: the ASN source; the Chinese `isp`/`org`: the Chinese database's operator
 *   and block owner, unless the AS belongs to another of China's operators, whose name then wins;
 * - coordinates are rounded to 4 decimals (about 11 m: more would be false precision).
 * An address no source places in a country is `{status: "fail", message: "no data"}`, never a success with zeros.
 */
import { pinyin } from 'pinyin-pro';
import { paramError } from '../../errors.js';
import { classifyAddress } from './ip-address.js';
import { recentAnswers } from '../../shared/memo.js';
import { shortNames, type PostcodeRow } from '../postcodes/postcodes.js';
import { GREATER_CHINA, chinaRegionByCode, findChinaRegion, type ChinaRegion } from './china-regions.js';
import type { AsnIpSource, ChineseIpSource, CityIpSource, CityPlace } from './ip-region-sources.js';
import { chinaCity, countryCentre, placeKey, subdivision, timeZoneAt } from './ip-gazetteer.js';

export type IpLang = 'zh-CN' | 'en';

export interface IpRegionSuccess {
  status: 'success';
  country: string;
  countryCode: string;
  region: string;
  regionName: string;
  city: string;
  zip: string;
  lat: number;
  lon: number;
  timezone: string;
  /** The level region, city, coordinates and time zone describe: one place, reduced together. */
  accuracy: IpAccuracy;
  isp: string;
  org: string;
  as: string;
  query: string;
}

export type IpAccuracy = 'city' | 'region' | 'country';

/** ip-api's answer for an address it does not look up: only these three keys. */
export interface IpRegionFail {
  status: 'fail';
  message: 'private range' | 'reserved range' | 'no data';
  query: string;
}

export type IpRegionResult = IpRegionSuccess | IpRegionFail;

/** Everything ip-region needs from its databases: the facts about one public address. */
export interface IpRegionProvider {
  /** undefined when no source places the address in a country. */
  lookup(address: string, version: 4 | 6, lang: IpLang): Omit<IpRegionSuccess, 'status' | 'query'> | undefined;
}

export interface IpSources {
  chinese?: ChineseIpSource;
  city?: CityIpSource;
  asn?: AsnIpSource;
}

const COUNTRY_OVERRIDES: Record<string, { zh: string; en: string }> = {
  CN: { zh: '中国', en: 'China' },
  HK: { zh: '中国香港', en: 'Hong Kong' },
  MO: { zh: '中国澳门', en: 'Macao' },
  TW: { zh: '中国台湾', en: 'Taiwan' },
};
const zhCountries = new Intl.DisplayNames(['zh-CN'], { type: 'region', fallback: 'code' });
const enCountries = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

const countryNames = new Map<string, string>();

/** `US` → `美国` / `United States`, from the runtime's ICU data (memoised: Intl lookups are slow per call). */
export function countryName(code: string, lang: IpLang): string {
  if (!code) return '';
  const key = `${lang}:${code}`;
  let name = countryNames.get(key);
  if (name === undefined) {
    const o = COUNTRY_OVERRIDES[code];
    try {
      name = o ? (lang === 'en' ? o.en : o.zh) : ((lang === 'en' ? enCountries : zhCountries).of(code) ?? code);
    } catch {
      name = code;
    }
    countryNames.set(key, name);
  }
  return name;
}

/**
 * China's operators, by the short name the Chinese database gives them (its ISP field: `电信`), with their full
 * Chinese and English names.
 */
export const CHINA_OPERATORS: Record<string, { zh: string; en: string }> = {
  电信: { zh: '中国电信', en: 'China Telecom' },
  联通: { zh: '中国联通', en: 'China Unicom' },
  移动: { zh: '中国移动', en: 'China Mobile' },
  铁通: { zh: '中国铁通', en: 'China Tietong' },
  广电: { zh: '中国广电', en: 'China Broadnet' },
  教育网: { zh: '中国教育和科研计算机网', en: 'CERNET' },
};
const CHINESE_ISP = Object.fromEntries(Object.entries(CHINA_OPERATORS).map(([short, o]) => [short, o.zh]));

/** China's operators as their AS organisations are named, to catch an ISP and an AS that name two operators. */
const OPERATOR_AS: Array<[RegExp, string]> = [
  [/chinanet|china ?telecom/i, '中国电信'],
  [/unicom|cncgroup|china169/i, '中国联通'],
  [/china ?mobile|cmnet/i, '中国移动'],
  [/tietong|china railway/i, '中国铁通'],
  [/cernet/i, '中国教育和科研计算机网'],
];
/** What the Chinese database puts in the ISP field for blocks it knows only the registry of: not an operator. */
const REGISTRY = /^(APNIC|ARIN|RIPE|RIPE NCC|LACNIC|AFRINIC|IANA)$/i;
const operatorOfAs = (org: string) => OPERATOR_AS.find(([re]) => re.test(org))?.[1];

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** `东莞` → `Dongguan`: how ip-api spells Chinese cities it has no English name for. */
export function cityPinyin(zh: string): string {
  const base = shortNames(zh)[0] ?? zh;
  return capitalise(pinyin(base, { toneType: 'none', separator: '', v: true }).replace(/\s+/g, ''));
}

/** Finds a city's official name from the short form the Chinese database uses: `深圳` → `深圳市`, `延边` → `延边朝鲜族自治州`. */
export class ChinaCityNames {
  private readonly byProvince = new Map<string, { cities: string[]; districts: string[] }>();

  constructor(rows: readonly PostcodeRow[]) {
    for (const r of rows) {
      let p = this.byProvince.get(r.province);
      if (!p) this.byProvince.set(r.province, (p = { cities: [], districts: [] }));
      if (!r.district) p.cities.push(r.city);
      else if (/市$/u.test(r.district)) p.districts.push(r.district); // county-level cities: 昆山市, 义乌市
    }
  }

  official(province: ChinaRegion, name: string): string {
    const p = this.byProvince.get(province.zh);
    if (!p || !name) return name;
    const same = (full: string) => full === name || shortNames(full).includes(name);
    return p.cities.find(same) ?? p.districts.find(same) ?? name;
  }
}

function sameRegion(geo: CityPlace | undefined, province: ChinaRegion): boolean {
  if (!geo) return false;
  if (geo.regionCode) return geo.regionCode.toUpperCase() === province.code;
  const en = geo.regionName.en ?? geo.regionName.zh;
  return !!en && findChinaRegion(en) === province;
}

type IpFacts = Omit<IpRegionSuccess, 'status' | 'query'>;
type Place = Pick<IpFacts, 'region' | 'regionName' | 'city' | 'lat' | 'lon' | 'timezone' | 'accuracy' | 'zip'>;

export class OfflineIpRegionProvider implements IpRegionProvider {
  constructor(
    private readonly sources: IpSources,
    private readonly cityNames: ChinaCityNames,
  ) {}

  lookup(address: string, version: 4 | 6, lang: IpLang): IpFacts | undefined {
    const cn = this.sources.chinese?.find(address);
    const geoAny = this.sources.city?.find(address, version);
    const asn = this.sources.asn?.find(address, version);
    const countryCode = cn?.countryCode || geoAny?.countryCode || '';
    if (!countryCode) return undefined;
    // A City answer for another country than the Chinese database's is ignored, not mixed in.
    const geo = geoAny && geoAny.countryCode === countryCode ? geoAny : undefined;
    const en = lang === 'en';

    const place = GREATER_CHINA.has(countryCode)
      ? this.chinaPlace(countryCode, cn?.region ?? '', cn?.city ?? '', geo, en)
      : foreignPlace(countryCode, geo, en);
    if (!place) return undefined;

    const asnOrg = asn?.organization ?? '';
    const asOperator = operatorOfAs(asnOrg);
    const cnOperator =
      cn?.isp && !REGISTRY.test(cn.isp) ? (countryCode === 'CN' ? (CHINESE_ISP[cn.isp] ?? cn.isp) : cn.isp) : '';
    // The Chinese database's operator stands unless the AS is plainly another Chinese operator's.
    const cnIsp =
      asOperator && Object.values(CHINESE_ISP).includes(cnOperator) && cnOperator !== asOperator
        ? asOperator
        : cnOperator;
    return {
      country: countryName(countryCode, lang),
      countryCode,
      ...place,
      lat: round4(place.lat),
      lon: round4(place.lon),
      isp: en ? asnOrg : cnIsp || asOperator || asnOrg,
      org: en ? asnOrg : (cnIsp === cnOperator ? cn?.owner : '') || cnIsp || asOperator || asnOrg,
      as: asn ? `AS${asn.number} ${asn.organization}`.trim() : '',
    };
  }

  private chinaPlace(
    countryCode: string,
    region: string,
    city: string,
    geo: CityPlace | undefined,
    en: boolean,
  ): Place | undefined {
    const province =
      countryCode === 'CN'
        ? (findChinaRegion(region) ?? (geo?.regionName.en ? findChinaRegion(geo.regionName.en) : undefined))
        : chinaRegionByCode(countryCode);
    if (!province) {
      // Only the country is known (many blocks are registered to 中国 as a whole).
      const centre =
        geo && !geo.regionName.en && !geo.city.en && geo.lat !== undefined && geo.lon !== undefined
          ? { lat: geo.lat, lon: geo.lon }
          : countryCentre(countryCode);
      if (!centre) return undefined;
      return {
        region: '',
        regionName: '',
        city: '',
        zip: '',
        lat: centre.lat,
        lon: centre.lon,
        timezone: 'Asia/Shanghai',
        accuracy: 'country',
      };
    }
    const agrees = sameRegion(geo, province);
    const regionName = en ? province.en : province.zh;
    const cityZh = city && countryCode === 'CN' ? this.cityNames.official(province, city) : '';
    if (cityZh && cityZh !== province.zh) {
      const py = cityPinyin(cityZh);
      const geoSameCity =
        agrees &&
        geo?.city.en &&
        placeKey(geo.city.en) === placeKey(py) &&
        geo.lat !== undefined &&
        geo.lon !== undefined;
      const at = geoSameCity
        ? { lat: geo!.lat!, lon: geo!.lon!, zip: geo!.zip ?? '' }
        : { ...chinaCity(province.code, py), zip: '' };
      if (at.lat !== undefined && at.lon !== undefined) {
        return {
          region: province.code,
          regionName,
          city: en ? py : cityZh,
          zip: at.zip,
          lat: at.lat,
          lon: at.lon,
          timezone: province.timezone,
          accuracy: 'city',
        };
      }
    }
    // A municipality or special region is its own city; otherwise the province, at a province-level point.
    const isCity = /^(BJ|TJ|SH|CQ|HK|MO)$/.test(province.code);
    const geoProvincePoint = agrees && !geo?.city.en && geo?.lat !== undefined && geo?.lon !== undefined;
    return {
      region: province.code,
      regionName,
      city: isCity ? regionName : '',
      zip: '',
      lat: geoProvincePoint ? geo!.lat! : province.lat,
      lon: geoProvincePoint ? geo!.lon! : province.lon,
      timezone: province.timezone,
      accuracy: isCity ? 'city' : 'region',
    };
  }
}

/** A place outside Greater China: the City record as one piece, names included, or the country. */
function foreignPlace(countryCode: string, geo: CityPlace | undefined, en: boolean): Place | undefined {
  if (geo && geo.lat !== undefined && geo.lon !== undefined) {
    const regionEn = geo.regionName.en ?? '';
    const cityEn = geo.city.en ?? '';
    const accuracy: IpAccuracy = cityEn || geo.city.zh ? 'city' : regionEn || geo.regionName.zh ? 'region' : 'country';
    const code = geo.regionCode ?? (regionEn ? subdivision(countryCode, regionEn)?.code : undefined) ?? '';
    const name = (n: { en?: string; zh?: string }) => (en ? n.en || n.zh : n.zh || n.en) || '';
    return {
      region: accuracy === 'country' ? '' : code,
      regionName: accuracy === 'country' ? '' : name(geo.regionName),
      city: accuracy !== 'city' ? '' : name(geo.city),
      zip: accuracy === 'city' ? (geo.zip ?? '') : '',
      lat: geo.lat,
      lon: geo.lon,
      // The City record's zone when it places the address below the country; a country-level point (often a
      // country's centre, in a country with several zones) gets the zone it lies in.
      timezone: (accuracy !== 'country' && geo.timezone) || timeZoneAt(countryCode, geo.lat, geo.lon),
      accuracy,
    };
  }
  const centre = countryCentre(countryCode);
  if (!centre) return undefined;
  return {
    region: '',
    regionName: '',
    city: '',
    zip: '',
    lat: centre.lat,
    lon: centre.lon,
    timezone: centre.timezone,
    accuracy: 'country',
  };
}

/**
 * The answer for one `ip` query value: looked up when public, ip-api's `fail` answer when private or reserved.
 * Throws a parameter error naming `ip` when the value is not an IPv4 or IPv6 address.
 */
export function resolveIpRegion(provider: IpRegionProvider, ip: string, lang: IpLang): IpRegionResult {
  const c = classifyAddress(ip);
  if (c.kind === 'invalid')
    throw paramError('ip', '应为 IPv4 或 IPv6 地址（如 8.8.8.8、2001:4860:4860::8888），留空查询本机出口 IP', ip);
  if (c.kind !== 'public')
    return { status: 'fail', message: c.kind === 'private' ? 'private range' : 'reserved range', query: ip };
  const facts = provider.lookup(c.address, c.version, lang);
  if (!facts) return { status: 'fail', message: 'no data', query: ip };
  return { status: 'success', ...facts, query: ip };
}

/** Answers kept for repeated addresses (a client polling its own address, a crawler, a benchmark): ~1 KB each. */
const RECENT_LIMIT = 10_000;

/**
 * resolveIpRegion with the last RECENT_LIMIT answers kept, by language and address as given: a repeated address is
 * neither classified nor looked up again, and gets the same frozen answer, which a route with `stableData`
 * serialises once. Invalid addresses throw every time (nothing kept).
 */
export function recentIpRegions(provider: IpRegionProvider) {
  return recentAnswers(
    RECENT_LIMIT,
    (ip: string, lang: IpLang) => `${lang}|${ip}`,
    (ip: string, lang: IpLang): IpRegionResult => resolveIpRegion(provider, ip, lang),
  );
}
