import { describe, expect, it } from 'vitest';
import { NOWHERE, placeOf, placeText } from './ip-place.js';
import type { IpRegionProvider } from './ip-region.js';

const facts = (countryCode: string, country: string, regionName: string, city: string, isp = '') => ({
  countryCode,
  country,
  regionName,
  city,
  isp,
});

describe('placeText', () => {
  it('names a Chinese place by province, city and China’s operator, without the country', () => {
    expect(
      placeText(facts('CN', '中国', '广东省', '深圳市', '中国电信'), facts('CN', 'China', 'Guangdong', 'Shenzhen')),
    ).toEqual({ zh: '广东省 深圳市 电信', en: 'Shenzhen, Guangdong (China Telecom)' });
  });

  it('says a municipality once, and leaves out an operator that is not one of China’s', () => {
    expect(
      placeText(facts('CN', '中国', '北京市', '北京市', '阿里云'), facts('CN', 'China', 'Beijing', 'Beijing')),
    ).toEqual({ zh: '北京市', en: 'Beijing' });
  });

  it('names the country when only the country is known', () => {
    expect(placeText(facts('CN', '中国', '', '', '中国移动'), facts('CN', 'China', '', ''))).toEqual({
      zh: '中国 移动',
      en: 'China (China Mobile)',
    });
    expect(placeText(facts('US', '美国', '', ''), facts('US', 'United States', '', ''))).toEqual({
      zh: '美国',
      en: 'United States',
    });
  });

  it('names Hong Kong, Macao and Taiwan by themselves, and a foreign city with its region and country', () => {
    expect(
      placeText(
        facts('HK', '中国香港', '香港特别行政区', '香港特别行政区'),
        facts('HK', 'Hong Kong', 'Hong Kong', 'Hong Kong'),
      ),
    ).toEqual({ zh: '中国香港', en: 'Hong Kong' });
    expect(
      placeText(
        facts('US', '美国', '加利福尼亚州', '山景城'),
        facts('US', 'United States', 'California', 'Mountain View'),
      ),
    ).toEqual({ zh: '美国 加利福尼亚州 山景城', en: 'Mountain View, California, United States' });
  });
});

describe('placeOf', () => {
  const asked: string[] = [];
  const provider: IpRegionProvider = {
    lookup(address, _version, lang) {
      asked.push(address);
      if (address !== '14.21.64.1') return undefined;
      const zh = lang !== 'en';
      return {
        ...facts(
          'CN',
          zh ? '中国' : 'China',
          zh ? '广东省' : 'Guangdong',
          zh ? '深圳市' : 'Shenzhen',
          zh ? '中国电信' : '',
        ),
        region: 'GD',
        zip: '',
        lat: 0,
        lon: 0,
        timezone: 'Asia/Shanghai',
        accuracy: 'city',
        org: '',
        as: '',
      };
    },
  };

  it('asks the database only about public addresses', () => {
    expect(placeOf(provider, '14.21.64.1').zh).toBe('广东省 深圳市 电信');
    expect(placeOf(provider, '127.0.0.1')).toBe(NOWHERE.loopback);
    expect(placeOf(provider, '::1')).toBe(NOWHERE.loopback);
    expect(placeOf(provider, '10.0.0.8')).toBe(NOWHERE.internal);
    expect(placeOf(provider, '203.0.113.5')).toBe(NOWHERE.unknown);
    expect(placeOf(provider, '')).toBe(NOWHERE.unknown);
    expect(placeOf(provider, '8.8.4.4')).toBe(NOWHERE.unknown);
    expect(asked).toEqual(['14.21.64.1', '14.21.64.1', '8.8.4.4']);
  });
});
