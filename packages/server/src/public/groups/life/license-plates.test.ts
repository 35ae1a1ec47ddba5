import { describe, it, expect } from 'vitest';
import { loadPlates, searchPlates, type PlateRow } from './license-plates.js';

const rows = loadPlates();

/** Written out independently of the data file: province → its capital. */
const CAPITALS: Record<string, string> = {
  北京市: '北京市',
  天津市: '天津市',
  河北省: '石家庄市',
  山西省: '太原市',
  内蒙古自治区: '呼和浩特市',
  辽宁省: '沈阳市',
  吉林省: '长春市',
  黑龙江省: '哈尔滨市',
  上海市: '上海市',
  江苏省: '南京市',
  浙江省: '杭州市',
  安徽省: '合肥市',
  福建省: '福州市',
  江西省: '南昌市',
  山东省: '济南市',
  河南省: '郑州市',
  湖北省: '武汉市',
  湖南省: '长沙市',
  广东省: '广州市',
  广西壮族自治区: '南宁市',
  海南省: '海口市',
  重庆市: '重庆市',
  四川省: '成都市',
  贵州省: '贵阳市',
  云南省: '昆明市',
  西藏自治区: '拉萨市',
  陕西省: '西安市',
  甘肃省: '兰州市',
  青海省: '西宁市',
  宁夏回族自治区: '银川市',
  新疆维吾尔自治区: '乌鲁木齐市',
};

/** GB/T 2260 order with each region's abbreviation. */
const ORDER: Array<[string, string]> = [
  ['北京市', '京'],
  ['天津市', '津'],
  ['河北省', '冀'],
  ['山西省', '晋'],
  ['内蒙古自治区', '蒙'],
  ['辽宁省', '辽'],
  ['吉林省', '吉'],
  ['黑龙江省', '黑'],
  ['上海市', '沪'],
  ['江苏省', '苏'],
  ['浙江省', '浙'],
  ['安徽省', '皖'],
  ['福建省', '闽'],
  ['江西省', '赣'],
  ['山东省', '鲁'],
  ['河南省', '豫'],
  ['湖北省', '鄂'],
  ['湖南省', '湘'],
  ['广东省', '粤'],
  ['广西壮族自治区', '桂'],
  ['海南省', '琼'],
  ['重庆市', '渝'],
  ['四川省', '川'],
  ['贵州省', '贵'],
  ['云南省', '云'],
  ['西藏自治区', '藏'],
  ['陕西省', '陕'],
  ['甘肃省', '甘'],
  ['青海省', '青'],
  ['宁夏回族自治区', '宁'],
  ['新疆维吾尔自治区', '新'],
];

function one(keyword: string): PlateRow {
  const found = searchPlates(rows, keyword);
  expect(found, `search ${keyword}`).toHaveLength(1);
  return found[0];
}

describe('license-plates data', () => {
  it('maps well-known prefixes to their cities', () => {
    const expected: Array<[string, string, string]> = [
      ['京A', '北京市', '北京市'],
      ['粤B', '广东省', '深圳市'],
      ['沪A', '上海市', '上海市'],
      ['苏E', '江苏省', '苏州市'],
      ['浙A', '浙江省', '杭州市'],
      ['川A', '四川省', '成都市'],
      ['鲁B', '山东省', '青岛市'],
      ['新A', '新疆维吾尔自治区', '乌鲁木齐市'],
      ['藏A', '西藏自治区', '拉萨市'],
      ['粤A', '广东省', '广州市'],
      ['闽D', '福建省', '厦门市'],
      ['吉H', '吉林省', '延边朝鲜族自治州'],
      ['蒙H', '内蒙古自治区', '锡林郭勒盟'],
      ['鄂M', '湖北省', '仙桃市'],
    ];
    for (const [prefix, province, city] of expected) {
      const row = one(prefix);
      expect(row.prefix).toBe(prefix);
      expect(row.province, prefix).toBe(province);
      expect(row.city, prefix).toBe(city);
    }
  });

  it('has a well-formed row everywhere', () => {
    expect(rows.length).toBeGreaterThan(350);
    for (const r of rows) {
      expect([...r.code], JSON.stringify(r)).toHaveLength(1);
      expect(r.prefix, JSON.stringify(r)).toMatch(/^.[A-Z]$/u);
      expect(r.prefix[0], JSON.stringify(r)).toBe(r.code);
      expect(r.city.length, JSON.stringify(r)).toBeGreaterThan(0);
    }
  });

  it('covers exactly the 31 mainland provincial-level regions, each with one abbreviation', () => {
    const provinces = new Set(rows.map((r) => r.province));
    expect(provinces.size).toBe(31);
    expect([...provinces].sort()).toEqual(Object.keys(CAPITALS).sort());
    for (const [province, code] of ORDER) {
      expect(new Set(rows.filter((r) => r.province === province).map((r) => r.code))).toEqual(new Set([code]));
    }
  });

  it('has no duplicate prefixes', () => {
    const seen = new Set<string>();
    const dups = rows.filter((r) => {
      if (seen.has(r.prefix)) return true;
      seen.add(r.prefix);
      return false;
    });
    expect(dups).toEqual([]);
  });

  it('gives every province a row for its capital', () => {
    for (const [province, capital] of Object.entries(CAPITALS)) {
      expect(
        rows.some((r) => r.province === province && r.city === capital),
        `${province} → ${capital}`,
      ).toBe(true);
    }
  });

  it('is ordered by province (GB/T 2260), then by letter', () => {
    const rank = new Map(ORDER.map(([p], i) => [p, i]));
    for (let i = 1; i < rows.length; i++) {
      const a = rows[i - 1];
      const b = rows[i];
      const ra = rank.get(a.province)!;
      const rb = rank.get(b.province)!;
      expect(ra <= rb, `${a.prefix} before ${b.prefix}`).toBe(true);
      if (ra === rb) expect(a.prefix < b.prefix, `${a.prefix} before ${b.prefix}`).toBe(true);
    }
  });
});

describe('searchPlates', () => {
  it('returns every row for an omitted or blank keyword, as a copy', () => {
    const all = searchPlates(rows);
    expect(all).toEqual(rows);
    expect(all).not.toBe(rows);
    expect(searchPlates(rows, '   ')).toEqual(rows);
  });

  it('accepts a lower-case letter and surrounding blanks', () => {
    expect(one('粤b').city).toBe('深圳市');
    expect(one('  粤B ').city).toBe('深圳市');
    expect(one('粤·B').city).toBe('深圳市');
  });

  it('finds the prefix of a whole plate number', () => {
    expect(one('粤B12345').city).toBe('深圳市');
    expect(one('京ad12345').prefix).toBe('京A');
  });

  it('returns nothing for a prefix that is not in the table', () => {
    expect(searchPlates(rows, '粤I')).toEqual([]);
  });

  it('returns every prefix of a province for its abbreviation', () => {
    const jing = searchPlates(rows, '京');
    expect(jing.length).toBeGreaterThan(10);
    expect(jing.every((r) => r.code === '京' && r.province === '北京市')).toBe(true);
    expect(jing.map((r) => r.prefix)).toContain('京A');
  });

  it('matches city names without their suffix', () => {
    const sz = searchPlates(rows, '深圳');
    expect(sz.map((r) => r.prefix)).toEqual(['粤B']);
  });

  it('matches province names without their suffix', () => {
    const gd = searchPlates(rows, '广东');
    expect(gd.length).toBeGreaterThanOrEqual(20);
    expect(gd.every((r) => r.province === '广东省')).toBe(true);

    const nmg = searchPlates(rows, '内蒙古');
    expect(nmg.length).toBeGreaterThanOrEqual(12);
    expect(nmg.every((r) => r.province === '内蒙古自治区')).toBe(true);
  });

  it('matches province and city written together', () => {
    expect(searchPlates(rows, '广东深圳').map((r) => r.prefix)).toEqual(['粤B']);
    expect(searchPlates(rows, '广东省深圳市').map((r) => r.prefix)).toEqual(['粤B']);
  });

  it('drops a wrong suffix only when the keyword as typed finds nothing', () => {
    const gx = searchPlates(rows, '广西省');
    expect(gx.length).toBeGreaterThan(10);
    expect(gx.every((r) => r.province === '广西壮族自治区')).toBe(true);
    expect(searchPlates(rows, '吉林市').map((r) => r.prefix)).toEqual(['吉B']);
  });

  it('keeps the table order', () => {
    const su = searchPlates(rows, '苏州');
    expect(su.map((r) => r.prefix)).toEqual(['苏E', '苏U']);
    const order = rows.map((r) => r.prefix);
    const idx = searchPlates(rows, '市').map((r) => order.indexOf(r.prefix));
    expect(idx).toEqual([...idx].sort((a, b) => a - b));
  });

  it('returns nothing for an unknown place', () => {
    expect(searchPlates(rows, '台北')).toEqual([]);
    expect(searchPlates(rows, 'xyz')).toEqual([]);
  });
});

describe('plate kinds', () => {
  const one = (k: string) => {
    const found = searchPlates(rows, k);
    expect(found, k).toHaveLength(1);
    return found[0];
  };

  it.each([
    ['粤BD12345', '粤B', '新能源小型汽车（纯电动）'],
    ['粤BA12345', '粤B', '新能源小型汽车（纯电动）'],
    ['粤BF12345', '粤B', '新能源小型汽车（非纯电动）'],
    ['粤·B K1234 5', '粤B', '新能源小型汽车（非纯电动）'],
    ['粤B12345D', '粤B', '新能源大型汽车（纯电动）'],
    ['粤B12345F', '粤B', '新能源大型汽车（非纯电动）'],
    ['粤B12345', '粤B', '普通汽车号牌'],
    ['京A1234警', '京A', '警用汽车'],
    ['京A1234学', '京A', '教练汽车'],
    ['京A1234挂', '京A', '挂车'],
    ['沪A1234领', '沪A', '领馆汽车'],
    ['粤Z1234港', '粤Z', '港澳入出境车（香港）'],
    ['粤Z1234澳', '粤Z', '港澳入出境车（澳门）'],
    ['粤A1234应急', '粤A', '应急救援车辆'],
  ])('%s is a %s plate issued by %s', (plate, prefix, type) => {
    const row = one(plate);
    expect(row).toMatchObject({ prefix, type });
    expect(row.province).not.toBe('');
    expect(row.note).toMatch(/\p{Script=Han}/u);
  });

  it('explains the plates that name no issuing prefix: 使 and WJ', () => {
    expect(one('使014578')).toMatchObject({ type: '使馆汽车', province: '', prefix: '' });
    expect(one('WJ粤12345')).toMatchObject({ type: '武警车辆', province: '广东省', code: '粤', prefix: '' });
    expect(one('wj12345')).toMatchObject({ type: '武警车辆', province: '' });
  });

  it.each(['使', '领', '警', '学', '挂', '港', '澳', '应急', 'WJ', '武警', '新能源'])(
    'explains the marker %s typed alone',
    (marker) => {
      const row = one(marker);
      expect(row.type).toBeTruthy();
      expect(row.note).toBeTruthy();
    },
  );

  it('keeps unknown layouts on the prefix rule and gives no kind', () => {
    expect(searchPlates(rows, '粤B1234').map((r) => [r.prefix, r.type])).toEqual([['粤B', undefined]]);
  });
});
