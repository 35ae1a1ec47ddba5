import { describe, expect, it } from 'vitest';
import { LookupError } from '../../errors.js';
import { CHINA_REGIONS, findChinaRegion } from './china-regions.js';
import {
  ChinaCityNames,
  OfflineIpRegionProvider,
  cityPinyin,
  countryName,
  recentIpRegions,
  resolveIpRegion,
} from './ip-region.js';
import { toCityPlace, type ChinesePlace, type CityPlace } from './ip-region-sources.js';
import type { PostcodeRow } from '../postcodes/postcodes.js';

const row = (province: string, city: string, district = '', postcode = '000000'): PostcodeRow => ({
  code: '000000',
  province,
  city,
  district,
  postcode,
});
const cityNames = new ChinaCityNames([
  row('广东省', '深圳市'),
  row('广东省', '深圳市', '南山区'),
  row('广东省', '东莞市'),
  row('吉林省', '延边朝鲜族自治州'),
  row('江苏省', '苏州市'),
  row('江苏省', '苏州市', '昆山市'),
  row('北京市', '北京市'),
]);

/** A provider over fixed answers: one entry per address for each source. */
function provider(
  chinese: Record<string, ChinesePlace>,
  city: Record<string, CityPlace>,
  asn: Record<string, { number: number; organization: string }> = {},
) {
  return new OfflineIpRegionProvider(
    { chinese: { find: (a) => chinese[a] }, city: { find: (a) => city[a] }, asn: { find: (a) => asn[a] } },
    cityNames,
  );
}
const cn = (over: Partial<ChinesePlace>): ChinesePlace => ({
  countryCode: 'CN',
  country: '中国',
  region: '',
  city: '',
  isp: '',
  owner: '',
  ...over,
});
const geo = (over: Partial<CityPlace>): CityPlace => ({ countryCode: 'CN', regionName: {}, city: {}, ...over });

describe('OfflineIpRegionProvider', () => {
  it('names Chinese places officially, with the province code, operator and AS', () => {
    const p = provider(
      { '1.1.1.1': cn({ region: '广东', city: '深圳', isp: '电信' }) },
      {
        '1.1.1.1': geo({
          regionName: { en: 'Guangdong' },
          city: { en: 'Shenzhen' },
          lat: 22.5,
          lon: 114.1,
          timezone: 'Asia/Shanghai',
        }),
      },
      { '1.1.1.1': { number: 4134, organization: 'Chinanet' } },
    );
    expect(p.lookup('1.1.1.1', 4, 'zh-CN')).toEqual({
      country: '中国',
      countryCode: 'CN',
      region: 'GD',
      regionName: '广东省',
      city: '深圳市',
      zip: '',
      lat: 22.5,
      lon: 114.1,
      timezone: 'Asia/Shanghai',
      accuracy: 'city',
      isp: '中国电信',
      org: '中国电信',
      as: 'AS4134 Chinanet',
    });
    expect(p.lookup('1.1.1.1', 4, 'en')).toMatchObject({
      country: 'China',
      regionName: 'Guangdong',
      city: 'Shenzhen',
      isp: 'Chinanet',
      org: 'Chinanet',
    });
  });

  it('places a Chinese city at its own coordinates when the City data puts the address in another city', () => {
    // GeoLite2 puts many Shenzhen, Foshan and Meizhou blocks at Guangzhou: the coordinates must be the named city's.
    const guangzhou = {
      regionName: { en: 'Guangdong' },
      city: { en: 'Guangzhou' },
      lat: 23.1167,
      lon: 113.25,
      timezone: 'Asia/Shanghai',
    };
    const p = provider(
      { a: cn({ region: '广东', city: '深圳' }), b: cn({ region: '广东', city: '东莞' }) },
      { a: geo(guangzhou), b: geo({ lat: 34.77, lon: 113.72 }) },
    );
    const a = p.lookup('a', 4, 'zh-CN')!;
    expect(a).toMatchObject({ region: 'GD', city: '深圳市', accuracy: 'city' });
    expect(Math.abs(a.lat - 22.55)).toBeLessThan(0.1);
    expect(Math.abs(a.lon - 114.05)).toBeLessThan(0.2);
    expect(p.lookup('b', 4, 'en')).toMatchObject({
      region: 'GD',
      regionName: 'Guangdong',
      city: 'Dongguan',
      accuracy: 'city',
      lat: 23.018,
      lon: 113.7487,
    });
  });

  it('reduces to the province, at the provincial capital, when no source has coordinates for the named city', () => {
    const p = provider(
      { a: cn({ region: '广东', city: '无名' }) },
      { a: geo({ regionName: { en: 'Guangdong' }, city: { en: 'Guangzhou' }, lat: 23.1167, lon: 113.25 }) },
    );
    for (const lang of ['zh-CN', 'en'] as const) {
      expect(p.lookup('a', 4, lang)).toMatchObject({
        region: 'GD',
        city: '',
        lat: 23.1291,
        lon: 113.2644,
        timezone: 'Asia/Shanghai',
        accuracy: 'region',
      });
    }
  });

  it('never pairs names of one place with coordinates of another abroad: a country-level point drops region and city', () => {
    // 8.8.8.8: the Chinese database says Santa Clara, GeoLite2 has only the centre of the USA.
    const p = provider(
      { a: cn({ countryCode: 'US', country: '美国', region: '加利福尼亚州', city: '圣克拉拉' }) },
      { a: geo({ countryCode: 'US', lat: 37.751, lon: -97.822, timezone: 'America/Chicago' }) },
    );
    for (const lang of ['zh-CN', 'en'] as const) {
      expect(p.lookup('a', 4, lang)).toMatchObject({
        region: '',
        regionName: '',
        city: '',
        lat: 37.751,
        lon: -97.822,
        timezone: 'America/Chicago',
        accuracy: 'country',
      });
    }
  });

  it('puts an address with no City record at its country’s centre, never at 0/0', () => {
    const p = provider(
      {
        a: cn({ countryCode: 'AU', country: '澳大利亚', isp: 'APNIC', owner: 'CloudFlare公共DNS服务器' }),
        j: cn({ countryCode: 'JP' }),
      },
      {},
      { a: { number: 13335, organization: 'Cloudflare, Inc.' } },
    );
    const a = p.lookup('a', 4, 'zh-CN')!;
    // Australia spans several zones: the one at its centre (in South Australia).
    expect(a).toMatchObject({
      countryCode: 'AU',
      accuracy: 'country',
      timezone: 'Australia/Adelaide',
      isp: 'Cloudflare, Inc.',
    });
    expect(a.lat).toBeLessThan(-10);
    expect(a.lon).toBeGreaterThan(110);
    expect(p.lookup('j', 4, 'en')).toMatchObject({ accuracy: 'country', timezone: 'Asia/Tokyo' });
  });

  it('gives the ISO subdivision code for a region the City data names only in English', () => {
    const p = provider(
      {},
      {
        a: geo({
          countryCode: 'DE',
          regionName: { en: 'Bavaria' },
          city: { en: 'Munich' },
          lat: 48.1374,
          lon: 11.5755,
          timezone: 'Europe/Berlin',
        }),
      },
    );
    expect(p.lookup('a', 4, 'en')).toMatchObject({
      region: 'BY',
      regionName: 'Bavaria',
      city: 'Munich',
      accuracy: 'city',
    });
  });

  it('names the operator the AS belongs to when the Chinese database names another of China’s operators', () => {
    const p = provider(
      { a: cn({ region: '山东', city: '青岛', isp: '电信' }) },
      {},
      { a: { number: 4837, organization: 'CHINA UNICOM China169 Backbone' } },
    );
    expect(p.lookup('a', 4, 'zh-CN')).toMatchObject({
      isp: '中国联通',
      org: '中国联通',
      as: 'AS4837 CHINA UNICOM China169 Backbone',
    });
  });

  it('rounds coordinates to 4 decimals', () => {
    const p = provider(
      {},
      {
        a: geo({
          countryCode: 'GB',
          regionName: { en: 'England' },
          city: { en: 'London' },
          lat: 51.508529999,
          lon: -0.125740001,
          timezone: 'Europe/London',
        }),
      },
    );
    expect(p.lookup('a', 4, 'en')).toMatchObject({ lat: 51.5085, lon: -0.1257 });
  });

  it('ignores a City answer for a different country than the Chinese database’s', () => {
    const p = provider(
      { a: cn({ region: '北京', city: '北京' }) },
      {
        a: geo({ countryCode: 'US', regionName: { en: 'Virginia' }, lat: 39, lon: -77, timezone: 'America/New_York' }),
      },
    );
    expect(p.lookup('a', 4, 'zh-CN')).toMatchObject({
      countryCode: 'CN',
      regionName: '北京市',
      city: '北京市',
      timezone: 'Asia/Shanghai',
      lat: 39.9042,
      accuracy: 'city',
    });
  });

  it('answers the country alone when only the country is known', () => {
    const p = provider({ a: cn({}) }, {});
    const d = p.lookup('a', 4, 'zh-CN')!;
    expect(d).toMatchObject({
      country: '中国',
      countryCode: 'CN',
      region: '',
      regionName: '',
      city: '',
      timezone: 'Asia/Shanghai',
      accuracy: 'country',
    });
    expect(d.lat).not.toBe(0);
  });

  it('names a foreign place as its City record does, never with the Chinese database’s other place (issue 50)', () => {
    // The Chinese database says Texas, the City record Santa Clara, California: one answer must not be both.
    const p = provider(
      { a: cn({ countryCode: 'US', country: '美国', region: '德克萨斯州', city: '达拉斯' }) },
      {
        a: geo({
          countryCode: 'US',
          regionCode: 'CA',
          regionName: { en: 'California', zh: '加利福尼亚州' },
          city: { en: 'Santa Clara', zh: '圣克拉拉' },
          zip: '95054',
          lat: 37.4,
          lon: -121.9,
          timezone: 'America/Los_Angeles',
        }),
      },
      { a: { number: 15169, organization: 'Google LLC' } },
    );
    expect(p.lookup('a', 4, 'zh-CN')).toMatchObject({
      country: '美国',
      region: 'CA',
      regionName: '加利福尼亚州',
      city: '圣克拉拉',
      zip: '95054',
      as: 'AS15169 Google LLC',
      accuracy: 'city',
    });
    expect(p.lookup('a', 4, 'en')).toMatchObject({
      country: 'United States',
      region: 'CA',
      regionName: 'California',
      city: 'Santa Clara',
      isp: 'Google LLC',
    });
  });

  it('falls back to the City data, then to English, for names the Chinese database lacks', () => {
    const p = provider(
      {},
      {
        a: geo({
          countryCode: 'GB',
          regionName: { en: 'England' },
          city: { en: 'London' },
          lat: 51.5,
          lon: -0.1,
          timezone: 'Europe/London',
        }),
      },
    );
    expect(p.lookup('a', 4, 'zh-CN')).toMatchObject({
      country: '英国',
      countryCode: 'GB',
      regionName: 'England',
      city: 'London',
      isp: '',
      as: '',
    });
  });

  it('answers nothing (not zeros) when no source places the address in a country', () => {
    expect(provider({}, {}).lookup('a', 4, 'zh-CN')).toBeUndefined();
    expect(resolveIpRegion(provider({}, {}), '8.8.4.4', 'en')).toEqual({
      status: 'fail',
      message: 'no data',
      query: '8.8.4.4',
    });
  });

  it('treats Hong Kong, Macao and Taiwan as regions with their own codes', () => {
    const p = provider({ a: cn({ countryCode: 'HK', region: '香港' }) }, {});
    expect(p.lookup('a', 4, 'zh-CN')).toMatchObject({
      country: '中国香港',
      countryCode: 'HK',
      region: 'HK',
      regionName: '香港特别行政区',
      timezone: 'Asia/Hong_Kong',
    });
    expect(p.lookup('a', 4, 'en')).toMatchObject({ country: 'Hong Kong', regionName: 'Hong Kong' });
  });
});

describe('resolveIpRegion', () => {
  const p = provider({ '8.8.8.8': cn({ countryCode: 'US', country: '美国' }) }, {});
  it('answers private and reserved addresses without a lookup', () => {
    expect(resolveIpRegion(p, '192.168.0.1', 'zh-CN')).toEqual({
      status: 'fail',
      message: 'private range',
      query: '192.168.0.1',
    });
    expect(resolveIpRegion(p, '127.0.0.1', 'en')).toEqual({
      status: 'fail',
      message: 'reserved range',
      query: '127.0.0.1',
    });
  });
  it('echoes the query as given', () => {
    expect(resolveIpRegion(p, '::ffff:8.8.8.8', 'zh-CN')).toMatchObject({
      status: 'success',
      countryCode: 'US',
      query: '::ffff:8.8.8.8',
    });
  });
  it('throws a parameter error naming ip for a malformed address', () => {
    expect(() => resolveIpRegion(p, 'not-an-ip', 'zh-CN')).toThrow(LookupError);
    expect(() => resolveIpRegion(p, 'not-an-ip', 'zh-CN')).toThrow(/参数 ip.*not-an-ip/);
  });
});

describe('recentIpRegions', () => {
  it('keeps one frozen answer per language and address as given, and never keeps an error', () => {
    let lookups = 0;
    const counting = provider({ '8.8.8.8': cn({ countryCode: 'US', country: '美国' }) }, {});
    const lookup = counting.lookup.bind(counting);
    counting.lookup = (...args) => {
      lookups++;
      return lookup(...args);
    };
    const resolve = recentIpRegions(counting);
    const first = resolve('8.8.8.8', 'zh-CN');
    expect(resolve('8.8.8.8', 'zh-CN')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(lookups).toBe(1);
    expect(resolve('8.8.8.8', 'en')).not.toBe(first);
    expect(resolve('::ffff:8.8.8.8', 'zh-CN')).toMatchObject({ countryCode: 'US', query: '::ffff:8.8.8.8' });
    expect(lookups).toBe(3);
    expect(resolve('10.0.0.1', 'zh-CN')).toEqual({ status: 'fail', message: 'private range', query: '10.0.0.1' });
    expect(() => resolve('not-an-ip', 'zh-CN')).toThrow(/参数 ip.*not-an-ip/);
    expect(() => resolve('not-an-ip', 'zh-CN')).toThrow(LookupError);
  });
});

describe('names', () => {
  it('finds the official city name from the short form', () => {
    const gd = findChinaRegion('广东')!;
    expect(cityNames.official(gd, '深圳')).toBe('深圳市');
    expect(cityNames.official(gd, '深圳市')).toBe('深圳市');
    expect(cityNames.official(findChinaRegion('吉林')!, '延边')).toBe('延边朝鲜族自治州');
    expect(cityNames.official(findChinaRegion('江苏')!, '昆山')).toBe('昆山市');
    expect(cityNames.official(gd, '未知')).toBe('未知');
  });

  it('spells Chinese cities in pinyin the way ip-api does', () => {
    expect(cityPinyin('东莞市')).toBe('Dongguan');
    expect(cityPinyin('重庆市')).toBe('Chongqing');
    expect(cityPinyin('长沙')).toBe('Changsha');
  });

  it('names countries in both languages', () => {
    expect(countryName('US', 'zh-CN')).toBe('美国');
    expect(countryName('JP', 'en')).toBe('Japan');
    expect(countryName('TW', 'zh-CN')).toBe('中国台湾');
    expect(countryName('', 'en')).toBe('');
  });

  it('has all 34 provincial-level divisions with unique two-letter codes', () => {
    expect(CHINA_REGIONS).toHaveLength(34);
    expect(new Set(CHINA_REGIONS.map((r) => r.code)).size).toBe(34);
    for (const r of CHINA_REGIONS) expect(r.code).toMatch(/^[A-Z]{2}$/);
    expect(findChinaRegion('内蒙古')?.code).toBe('NM');
    expect(findChinaRegion('陕西')?.code).toBe('SN');
    expect(findChinaRegion('山西')?.code).toBe('SX');
    expect(findChinaRegion('Inner Mongolia')?.zh).toBe('内蒙古自治区');
    expect(findChinaRegion('Ningxia Hui Autonomous Region')?.code).toBe('NX');
    expect(findChinaRegion('shaanxi')?.code).toBe('SN');
    expect(findChinaRegion('Atlantis')).toBeUndefined();
  });
});

describe('toCityPlace', () => {
  it('reads MaxMind’s own City record shape, with Chinese names when present', () => {
    const rec = {
      country: { iso_code: 'CN', geoname_id: 1, names: { en: 'China', 'zh-CN': '中国' } },
      subdivisions: [{ iso_code: 'GD', geoname_id: 2, names: { en: 'Guangdong', 'zh-CN': '广东' } }],
      city: { geoname_id: 3, names: { en: 'Shenzhen', 'zh-CN': '深圳' } },
      postal: { code: '518000' },
      location: { latitude: 22.55, longitude: 114.07, time_zone: 'Asia/Shanghai', accuracy_radius: 50 },
    };
    expect(toCityPlace(rec as never)).toEqual({
      countryCode: 'CN',
      regionCode: 'GD',
      regionName: { en: 'Guangdong', zh: '广东' },
      city: { en: 'Shenzhen', zh: '深圳' },
      zip: '518000',
      lat: 22.55,
      lon: 114.07,
      timezone: 'Asia/Shanghai',
    });
  });

  it('reads ip-location-db’s flattened record shape', () => {
    const rec = {
      country_code: 'CN',
      state1: 'Zhejiang',
      state2: '',
      city: 'Hangzhou',
      postcode: '',
      latitude: 30.29,
      longitude: 120.17,
      timezone: 'Asia/Shanghai',
    };
    expect(toCityPlace(rec)).toEqual({
      countryCode: 'CN',
      regionName: { en: 'Zhejiang' },
      city: { en: 'Hangzhou' },
      zip: undefined,
      lat: 30.29,
      lon: 120.17,
      timezone: 'Asia/Shanghai',
    });
    expect(toCityPlace(null)).toBeUndefined();
  });
});
