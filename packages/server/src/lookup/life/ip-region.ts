/**
 * IP → region, shaped like ip-api.com's answer. Pure: the databases come in as sources (ip-region-sources.ts),
 * so tests can hand in their own.
 *
 * Which source answers what:
 * - country: the Chinese database's country code, else the City database's;
 * - China, Hong Kong, Macao, Taiwan: province and city from the Chinese database (official names via the
 *   province table and data/postcodes.json: `广东` → `广东省`, `深圳` → `深圳市`); English names from the province
 *   table and the City database when it agrees on the province, else the city's pinyin; coordinates from the City
 *   database when it agrees on the province, else the provincial capital's (GeoLite2 places most Chinese blocks
 *   at the country's centre);
 * - elsewhere: Chinese names from the Chinese database, English names, region code, postcode, coordinates and
 *   time zone from the City database;
 * - `as` and the English `isp`/`org`: the ASN source; the Chinese `isp`/`org`: the Chinese database's operator
 *   and block owner, falling back to the ASN organisation.
 * A field no source knows is an empty string (numbers: 0).
 */
import { pinyin } from 'pinyin-pro';
import { paramError } from '../../errors.js';
import { classifyAddress } from './ip-address.js';
import { shortNames, type PostcodeRow } from './postcodes.js';
import { GREATER_CHINA, chinaRegionByCode, findChinaRegion, type ChinaRegion } from './china-regions.js';
import type { AsnIpSource, ChineseIpSource, CityIpSource, CityPlace } from './ip-region-sources.js';

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
  isp: string;
  org: string;
  as: string;
  query: string;
}

/** ip-api's answer for an address it does not look up: only these three keys. */
export interface IpRegionFail {
  status: 'fail';
  message: 'private range' | 'reserved range';
  query: string;
}

export type IpRegionResult = IpRegionSuccess | IpRegionFail;

/** Everything ip-region needs from its databases: the facts about one public address. */
export interface IpRegionProvider {
  lookup(address: string, version: 4 | 6, lang: IpLang): Omit<IpRegionSuccess, 'status' | 'query'>;
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

/** The Chinese database names the three state-owned operators by their last two characters. */
const CHINESE_ISP: Record<string, string> = {
  电信: '中国电信',
  联通: '中国联通',
  移动: '中国移动',
  铁通: '中国铁通',
  广电: '中国广电',
  教育网: '中国教育和科研计算机网',
};

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

/** Answers kept for repeated addresses (a client polling its own address, a crawler, a benchmark): ~1 KB each. */
const RECENT_LIMIT = 10_000;

export class OfflineIpRegionProvider implements IpRegionProvider {
  private readonly recent = new Map<string, IpFacts>();

  constructor(
    private readonly sources: IpSources,
    private readonly cityNames: ChinaCityNames,
  ) {}

  lookup(address: string, version: 4 | 6, lang: IpLang): IpFacts {
    const key = `${lang}|${address}`;
    let facts = this.recent.get(key);
    if (facts) return facts;
    facts = this.compute(address, version, lang);
    if (this.recent.size >= RECENT_LIMIT) this.recent.delete(this.recent.keys().next().value as string);
    this.recent.set(key, facts);
    return facts;
  }

  private compute(address: string, version: 4 | 6, lang: IpLang): IpFacts {
    const cn = this.sources.chinese?.find(address);
    const geoAny = this.sources.city?.find(address, version);
    const asn = this.sources.asn?.find(address, version);
    const countryCode = cn?.countryCode || geoAny?.countryCode || '';
    // A City answer for another country than the Chinese database's is ignored, not mixed in.
    const geo = geoAny && geoAny.countryCode === countryCode ? geoAny : undefined;
    const en = lang === 'en';

    const place = GREATER_CHINA.has(countryCode) ? this.chinaPlace(countryCode, cn?.region ?? '', cn?.city ?? '', geo, en) : this.foreignPlace(cn?.region ?? '', cn?.city ?? '', geo, en);

    const asnOrg = asn?.organization ?? '';
    const cnIsp = cn?.isp ? (countryCode === 'CN' ? (CHINESE_ISP[cn.isp] ?? cn.isp) : cn.isp) : '';
    return {
      country: countryName(countryCode, lang),
      countryCode,
      ...place,
      zip: geo?.zip ?? '',
      isp: en ? asnOrg : cnIsp || asnOrg,
      org: en ? asnOrg : cn?.owner || cnIsp || asnOrg,
      as: asn ? `AS${asn.number} ${asn.organization}`.trim() : '',
    };
  }

  private chinaPlace(countryCode: string, region: string, city: string, geo: CityPlace | undefined, en: boolean) {
    const province = countryCode === 'CN' ? findChinaRegion(region) ?? (geo?.regionName.en ? findChinaRegion(geo.regionName.en) : undefined) : chinaRegionByCode(countryCode);
    if (!province) {
      // Only the country is known (many blocks are registered to 中国 as a whole).
      return { region: '', regionName: '', city: '', lat: geo?.lat ?? 0, lon: geo?.lon ?? 0, timezone: geo?.timezone ?? 'Asia/Shanghai' };
    }
    const agrees = sameRegion(geo, province);
    const cityZh = city ? this.cityNames.official(province, city) : '';
    const geoCity = agrees ? geo?.city : undefined;
    const cityName = en ? (cityZh ? cityPinyin(cityZh) : (geoCity?.en ?? '')) : cityZh || geoCity?.zh || '';
    return {
      region: province.code,
      regionName: en ? province.en : province.zh,
      city: cityName,
      lat: agrees && geo?.lat !== undefined ? geo.lat : province.lat,
      lon: agrees && geo?.lon !== undefined ? geo.lon : province.lon,
      timezone: (agrees && geo?.timezone) || province.timezone,
    };
  }

  private foreignPlace(region: string, city: string, geo: CityPlace | undefined, en: boolean) {
    return {
      region: geo?.regionCode ?? '',
      regionName: en ? (geo?.regionName.en ?? '') : region || geo?.regionName.zh || geo?.regionName.en || '',
      city: en ? (geo?.city.en ?? '') : city || geo?.city.zh || geo?.city.en || '',
      lat: geo?.lat ?? 0,
      lon: geo?.lon ?? 0,
      timezone: geo?.timezone ?? '',
    };
  }
}

/**
 * The answer for one `ip` query value: looked up when public, ip-api's `fail` answer when private or reserved.
 * Throws a parameter error naming `ip` when the value is not an IPv4 or IPv6 address.
 */
export function resolveIpRegion(provider: IpRegionProvider, ip: string, lang: IpLang): IpRegionResult {
  const c = classifyAddress(ip);
  if (c.kind === 'invalid') throw paramError('ip', '应为 IPv4 或 IPv6 地址（如 8.8.8.8、2001:4860:4860::8888），留空查询本机出口 IP', ip);
  if (c.kind !== 'public') return { status: 'fail', message: c.kind === 'private' ? 'private range' : 'reserved range', query: ip };
  return { status: 'success', ...provider.lookup(c.address, c.version, lang), query: ip };
}
