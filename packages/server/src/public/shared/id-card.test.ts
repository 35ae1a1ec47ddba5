import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { ageOn, checkDigit, composeIdCard, idRegions, inspectIdCard, to18 } from './id-card.js';

// `idcard` (a dev dependency, an independent implementation) cross-checks the check digit and the 15 → 18 conversion.
const idcard = createRequire(import.meta.url)('idcard') as {
  verify(id: string): boolean;
  upgrade15To18(id: string): { card: string };
};

const TODAY = '2026-11-21';

/** 2^(17-i) mod 11 written out from the standard's formula, not from the module's weight table. */
function referenceCheckDigit(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * (2 ** (17 - i) % 11);
  return '10X98765432'[sum % 11];
}

describe('id-card check digit', () => {
  it('reproduces the two examples printed in GB 11643-1999', () => {
    expect(checkDigit('11010519491231002')).toBe('X');
    expect(checkDigit('44052418800101001')).toBe('4');
  });

  it('agrees with the standard formula and with the idcard package on a thousand constructed numbers', () => {
    const codes = [...idRegions().keys()];
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let k = 0; k < 1000; k++) {
      const day = new Date(Date.UTC(1930 + next(90), 0, 1) + next(365) * 86400_000).toISOString().slice(0, 10);
      const id = composeIdCard(codes[next(codes.length)], day, next(1000));
      expect(id.slice(17)).toBe(referenceCheckDigit(id.slice(0, 17)));
      expect(idcard.verify(id)).toBe(true);
    }
  });
});

describe('inspectIdCard', () => {
  it('explains a valid number: gender, birthday, age, zodiac, constellation, region', () => {
    const r = inspectIdCard('11010519491231002x', TODAY);
    expect(r).toMatchObject({
      valid: true,
      input: '11010519491231002X',
      id18: '11010519491231002X',
      gender: '女',
      birthday: '1949-12-31',
      age: 76,
      // born before the 1950 Spring Festival (17 February): still the year of the ox
      zodiac: '牛',
      constellation: '摩羯座',
      region: {
        code: '110105',
        province: '北京市',
        city: '北京市',
        district: '朝阳区',
        historical: false,
        name: '北京市朝阳区',
      },
    });
    expect(r.reason).toBeUndefined();
  });

  it('reads the sex from the 17th digit: odd is male', () => {
    expect(inspectIdCard(composeIdCard('440524', '1980-01-01', 1), TODAY).gender).toBe('男');
    const female = composeIdCard('440305', '1990-06-15', 2);
    expect(inspectIdCard(female, TODAY)).toMatchObject({
      valid: true,
      gender: '女',
      constellation: '双子座',
      zodiac: '马',
    });
  });

  it('resolves historical codes that are no longer in the 2023 table', () => {
    const chongwen = inspectIdCard(composeIdCard('110103', '1975-03-08', 11), TODAY);
    expect(chongwen.region).toMatchObject({ district: '崇文区', historical: true, name: '北京市崇文区' });
    const chaohu = inspectIdCard(composeIdCard('341421', '1980-08-01', 35), TODAY);
    expect(chaohu.region).toMatchObject({ province: '安徽省', city: '巢湖市', district: '庐江县', historical: true });
    // 重庆 was part of 四川 until 1997: its old 5102 codes resolve under 四川
    expect(inspectIdCard(composeIdCard('510202', '1960-01-01', 1), TODAY).region).toMatchObject({
      province: '四川省',
      historical: true,
    });
    expect(inspectIdCard(composeIdCard('440524', '1980-01-01', 1), TODAY).region).toMatchObject({
      city: '汕头市',
      district: '潮阳县',
      historical: true,
    });
  });

  it('converts a 15-digit number like the idcard package does', () => {
    for (const old of ['130503670401001', '110103800101002', '440301751231135']) {
      const r = inspectIdCard(old, TODAY);
      expect(r.valid).toBe(true);
      expect(r.id18).toBe(to18(old));
      expect(r.id18).toBe(idcard.upgrade15To18(old).card);
    }
    expect(inspectIdCard('130503670401001', TODAY)).toMatchObject({
      id18: '130503196704010016',
      birthday: '1967-04-01',
      gender: '男',
    });
  });

  it('gives the exact reason a number is invalid', () => {
    const cases: [string, string, RegExp][] = [
      ['1101051949123100', 'length', /18 位.*实际为 16 位/],
      ['11010519491231002X1', 'length', /19 位/],
      ['1101051949X231002X', 'characters', /前 17 位必须是数字/],
      ['13050367040100X', 'characters', /15 位旧号码只能由数字组成/],
      [composeIdCard('999999', '1990-01-01', 1), 'region', /地区码 999999/],
      ['110105199002300011', 'birthday', /出生日期 19900230 不存在/],
      ['110105199013010011', 'birthday', /19901301/],
      [composeIdCard('110105', '1899-12-31', 1), 'birthday', /早于 1900-01-01/],
      [composeIdCard('110105', '1850-06-01', 1), 'birthday', /早于 1900-01-01/],
      ['810000880808001', 'region', /居住证号码只有 18 位/],
      [composeIdCard('840000', '1990-01-01', 1), 'region', /地区码 840000/],
      [composeIdCard('110105', '2026-11-22', 1), 'future_birthday', /晚于今天（2026-11-21）/],
      ['110105194912310021', 'checksum', /第 18 位应为 X，实际为 1/],
    ];
    for (const [id, problem, reason] of cases) {
      const r = inspectIdCard(id, TODAY);
      expect(r.valid, id).toBe(false);
      expect(r.problem, id).toBe(problem);
      expect(r.reason, id).toMatch(reason);
      expect(r.gender, id).toBeUndefined();
    }
    expect(inspectIdCard('110105194912310021', TODAY).expectedCheckDigit).toBe('X');
  });

  it('accepts residence permits of Hong Kong, Macau and Taiwan residents (810000 / 820000 / 830000)', () => {
    const cases: [string, string, string][] = [
      ['810000', '香港特别行政区', '港澳居民居住证'],
      ['820000', '澳门特别行政区', '港澳居民居住证'],
      ['830000', '台湾省', '台湾居民居住证'],
    ];
    for (const [code, province, document] of cases) {
      const r = inspectIdCard(composeIdCard(code, '1990-05-17', 35), TODAY);
      expect(r, code).toMatchObject({
        valid: true,
        document,
        gender: '男',
        birthday: '1990-05-17',
        region: { code, province, name: province },
      });
    }
    expect(inspectIdCard(composeIdCard('110105', '1990-05-17', 35), TODAY).document).toBe('居民身份证');
    expect(inspectIdCard(composeIdCard('110105', '1900-01-01', 35), TODAY).valid).toBe(true);
  });

  it('accepts a birthday of today and counts age from the last birthday', () => {
    expect(inspectIdCard(composeIdCard('110105', TODAY, 1), TODAY)).toMatchObject({ valid: true, age: 0 });
    expect(ageOn('2000-11-22', TODAY)).toBe(25);
    expect(ageOn('2000-11-21', TODAY)).toBe(26);
    expect(ageOn('2000-02-29', '2025-02-28')).toBe(24);
    expect(ageOn('2000-02-29', '2025-03-01')).toBe(25);
  });
});

describe('the region table', () => {
  it('holds every current county and the historical codes, with no placeholder prefecture names', () => {
    const table = idRegions();
    const current = [...table.values()].filter((r) => !r.historical);
    expect(current.length).toBeGreaterThan(2900);
    expect(table.size - current.length).toBeGreaterThan(3000);
    for (const [code, r] of table) {
      // cities without counties (东莞 441900, 中山 442000, 儋州 460400) issue numbers under the city's own code
      if (code.endsWith('00')) expect(r.district).toBe(r.city);
      expect(code).toMatch(/^\d{6}$/);
      expect(r.province).toMatch(/(省|市|自治区)$/);
      expect(r.city).not.toMatch(/^(市辖区|县|.*直辖.*)$/);
    }
    expect(table.get('440305')).toEqual({ province: '广东省', city: '深圳市', district: '南山区', historical: false });
    expect(table.get('500229')).toMatchObject({ city: '重庆市', district: '城口县' });
    expect(table.get('419001')).toMatchObject({ city: '', district: '济源市' });
    expect(inspectIdCard(composeIdCard('441900', '1988-08-08', 8), TODAY).region?.name).toBe('广东省东莞市');
  });
});
