import { describe, expect, it } from 'vitest';
import lunarJs from 'lunar-javascript';
import { inspectIdCard } from '../../shared/id-card.js';
import { loadPostcodes } from '../../../engines/postcodes/postcodes.js';
import { loadPersonData, randomPerson } from './random-person.js';
import { seededRng } from '../../../shared/rng.js';

const TODAY = '2026-11-21';
const data = loadPersonData();
const opts = { today: TODAY, ageWindow: 'year' as const };
const people = (n: number, seed = 'people', gender?: 'male' | 'female') => {
  const rng = seededRng(seed);
  return Array.from({ length: n }, () => randomPerson(rng, data, { ...opts, gender }));
};

/** Western star sign by the usual date ranges, written out independently of lunar-javascript. */
function starSign(birthday: string): string {
  const md = Number(birthday.slice(5, 7)) * 100 + Number(birthday.slice(8, 10));
  const signs: [number, string][] = [
    [120, '摩羯座'],
    [219, '水瓶座'],
    [321, '双鱼座'],
    [420, '白羊座'],
    [521, '金牛座'],
    [622, '双子座'],
    [723, '巨蟹座'],
    [823, '狮子座'],
    [923, '处女座'],
    [1024, '天秤座'],
    [1123, '天蝎座'],
    [1222, '射手座'],
    [1232, '摩羯座'],
  ];
  return signs.find(([end]) => md < end)![1];
}

describe('random person', () => {
  const sample = people(300);
  const postcodes = new Map(loadPostcodes().map((r) => [r.code, r]));

  it('has an ID number that agrees with birthday, sex and the county of the address', () => {
    for (const p of sample) {
      const id = inspectIdCard(p.idCard, TODAY);
      expect(id.valid, p.idCard).toBe(true);
      expect(p.idCard.slice(0, 6)).toBe(p.address.regionCode);
      expect(id.birthday).toBe(p.birthday);
      expect(id.gender).toBe(p.gender);
      expect(Number(p.idCard[16]) % 2 === 1 ? '男' : '女').toBe(p.gender);
      expect(id.age).toBe(p.age);
    }
  });

  it('lives at a real address whose postcode belongs to its county', () => {
    for (const p of sample) {
      const row = postcodes.get(p.address.regionCode)!;
      expect(row, p.address.regionCode).toBeDefined();
      expect(p.address).toMatchObject({
        province: row.province,
        city: row.city,
        district: row.district,
        postcode: row.postcode,
      });
      expect(p.address.full.startsWith(p.address.province)).toBe(true);
      expect(p.address.full.endsWith('号') || p.address.full.endsWith('室')).toBe(true);
    }
  });

  it('has zodiac and constellation that follow the birthday', () => {
    for (const p of sample) {
      const [y, m, d] = p.birthday.split('-').map(Number);
      expect(p.zodiac).toBe(lunarJs.Solar.fromYmd(y, m, d).getLunar().getYearShengXiao());
      expect(p.constellation).toBe(starSign(p.birthday));
    }
  });

  it('has a mobile number with a real operator segment and plausible body measurements', () => {
    const segments = new Map(data.phones.map(([op, seg]) => [seg, op]));
    for (const p of sample) {
      expect(p.phone).toMatch(/^1\d{10}$/);
      expect(segments.get(p.phone.slice(0, 3))).toBe(p.phoneOperator);
      expect(p.height).toBeGreaterThanOrEqual(140);
      expect(p.height).toBeLessThanOrEqual(200);
      expect(p.bmi).toBeCloseTo(p.weight / (p.height / 100) ** 2, 1);
      expect(p.age).toBeGreaterThanOrEqual(18);
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const men = people(400, 'men', 'male');
    const women = people(400, 'women', 'female');
    expect(men.every((p) => p.gender === '男') && women.every((p) => p.gender === '女')).toBe(true);
    expect(mean(men.map((p) => p.height))).toBeGreaterThan(mean(women.map((p) => p.height)) + 8);
  });

  it('draws ethnicity and blood type near the national shares, minorities where they live', () => {
    const many = people(3000, 'census');
    const share = (f: (p: (typeof many)[number]) => boolean) => many.filter(f).length / many.length;
    expect(share((p) => p.ethnicity === '汉族')).toBeGreaterThan(0.88);
    expect(share((p) => p.ethnicity === '汉族')).toBeLessThan(0.94);
    expect(share((p) => p.bloodType === 'O')).toBeGreaterThan(0.3);
    expect(share((p) => p.bloodType === 'AB')).toBeLessThan(0.13);
    for (const p of many.filter((x) => x.ethnicity === '维吾尔族')) expect(p.address.province).toBe('新疆维吾尔自治区');
    for (const p of many.filter((x) => x.ethnicity === '壮族'))
      expect(['广西壮族自治区', '云南省', '广东省', '贵州省']).toContain(p.address.province);
  });

  it('has education and occupation that fit the age', () => {
    for (const p of people(1000, 'careers')) {
      if (p.occupation === '退休') expect(p.age).toBeGreaterThanOrEqual(55);
      if (/工程师|律师|医生|研究员/.test(p.occupation))
        expect(['本科', '硕士研究生', '博士研究生']).toContain(p.education);
      if (p.education === '博士研究生') expect(p.age).toBeGreaterThanOrEqual(27);
      if (p.occupation === '大学生') expect(p.age).toBeLessThanOrEqual(22);
    }
  });

  it('reads the surname as a surname and the given name as ordinary words in namePinyin', () => {
    const many = people(4000, 'names');
    const seen = { zeng: 0, hua: 0, yan: 0 };
    for (const p of many) {
      const syllables = p.namePinyin.split(' ');
      expect(syllables).toHaveLength([...p.name].length);
      // 曾 as a surname is zēng (céng elsewhere).
      if (p.name.startsWith('曾')) {
        seen.zeng++;
        expect(syllables[0]).toBe('zēng');
      }
      // 华 and 燕 in a given name are huá and yàn; read as surnames they would be huà and yān.
      [...p.name].forEach((ch, i) => {
        if (i === 0) return;
        if (ch === '华') {
          seen.hua++;
          expect(syllables[i]).toBe('huá');
        }
        if (ch === '燕') {
          seen.yan++;
          expect(syllables[i]).toBe('yàn');
        }
      });
    }
    expect(seen.zeng).toBeGreaterThan(0);
    expect(seen.hua).toBeGreaterThan(0);
    expect(seen.yan).toBeGreaterThan(0);
  });

  it('is the same person for the same seed', () => {
    expect(people(5, 'again')).toEqual(people(5, 'again'));
  });
});
