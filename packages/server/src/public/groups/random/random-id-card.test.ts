import { describe, expect, it } from 'vitest';
import { LookupError } from '../../../errors.js';
import { checkDigit, inspectIdCard } from '../../shared/id-card.js';
import {
  isStatisticalCode,
  issuingCodes,
  issuingProvinces,
  randomBirthday,
  randomIdCard,
  resolveProvince,
} from './random-id-card.js';
import { seededRng, secureRng } from '../../../shared/rng.js';

const TODAY = '2026-11-21';

describe('random ID numbers', () => {
  it('are valid by the same checks /api/id-card applies, and say what they encode', () => {
    const rng = seededRng('valid');
    for (let i = 0; i < 500; i++) {
      const card = randomIdCard(rng, {}, TODAY);
      const report = inspectIdCard(card.id, TODAY);
      expect(report.valid, card.id).toBe(true);
      expect(card.id.slice(17)).toBe(checkDigit(card.id));
      expect(report).toMatchObject({ gender: card.gender, birthday: card.birthday, region: card.region });
      expect(card.region.historical).toBe(false);
      expect(card.age).toBeGreaterThanOrEqual(18);
      expect(card.age).toBeLessThanOrEqual(70);
    }
  });

  it('honour gender, province and birth year', () => {
    const rng = seededRng('filters');
    for (let i = 0; i < 200; i++) {
      const f = randomIdCard(rng, { gender: 'female', province: '44', birthYear: 1990 }, TODAY);
      expect(Number(f.id[16]) % 2).toBe(0);
      expect(f.gender).toBe('女');
      expect(f.region.province).toBe('广东省');
      expect(f.birthday.startsWith('1990-')).toBe(true);
      const m = randomIdCard(rng, { gender: 'male', province: '65', birthYear: 2026 }, TODAY);
      expect(Number(m.id[16]) % 2).toBe(1);
      expect(m.region.province).toBe('新疆维吾尔自治区');
      expect(m.birthday <= TODAY).toBe(true);
    }
  });

  it('never use an abolished code or a development-zone statistics code', () => {
    const codes = issuingCodes();
    expect(codes.length).toBeGreaterThan(2800);
    expect(codes).not.toContain('110103'); // 崇文区, merged in 2010
    expect(codes).not.toContain('320571'); // 苏州工业园区: a statistics code, not a county
    expect(codes).toContain('440305');
  });

  // 10,000 draws: well under a second here, but past 30 s on a machine with load 20 (busy run of 2026-12-02).
  it('never use a statistics-only code of the NBS table: 大兴安岭’s 232761–232764, 大柴旦 632857 (issue 50)', {
    timeout: 180_000,
  }, () => {
    const codes = new Set(issuingCodes());
    for (const code of ['232761', '232762', '232763', '232764', '632857']) expect(codes.has(code), code).toBe(false);
    expect(codes.has('232701')).toBe(true); // 漠河市, a GB/T 2260 county-level city of the same prefecture
    // Drawn in the two provinces: 5,000 numbers each, none under a statistics-only code.
    const rng = seededRng('issue-50');
    for (const province of ['23', '63']) {
      const drawn = new Set<string>();
      for (let i = 0; i < 5000; i++) drawn.add(randomIdCard(rng, { province }, TODAY).id.slice(0, 6));
      expect(
        [...drawn].filter((c) => isStatisticalCode(c) || !codes.has(c)),
        province,
      ).toEqual([]);
      expect(drawn.size).toBeGreaterThan(province === '23' ? 100 : 30);
    }
  });

  it('read a province by code, full name or short name', () => {
    expect(issuingProvinces()).toHaveLength(31);
    for (const p of ['44', '广东', '广东省']) expect(resolveProvince(p)).toBe('44');
    expect(resolveProvince('广西')).toBe('45');
    expect(resolveProvince('内蒙古自治区')).toBe('15');
    expect(resolveProvince('新疆')).toBe('65');
    expect(() => resolveProvince('台湾')).toThrow(LookupError);
    expect(() => resolveProvince('99')).toThrow(/province/);
  });

  it('keep a seeded holder aged 18–70 on every day of the year, with the same birthday all year', () => {
    const ageOn = (birthday: string, day: string) =>
      Number(day.slice(0, 4)) - Number(birthday.slice(0, 4)) - (day.slice(5) < birthday.slice(5) ? 1 : 0);
    const days = Array.from({ length: 366 }, (_, i) => new Date(Date.UTC(2028, 0, 1 + i)).toISOString().slice(0, 10));
    const ages = new Set<number>();
    for (let s = 0; s < 400; s++) {
      const birthdays = new Set(days.map((d) => randomBirthday(seededRng(`s${s}`), d, undefined, 'year')));
      expect(birthdays.size, `seed s${s}`).toBe(1);
      const [b] = birthdays;
      for (const d of [days[0], days[59], days[365]]) {
        const age = ageOn(b, d);
        ages.add(age);
        expect(age >= 18 && age <= 70, `${b} on ${d}: ${age}`).toBe(true);
      }
    }
    // The whole range is used, both edges included.
    expect(Math.min(...ages)).toBe(18);
    expect(Math.max(...ages)).toBe(70);
    // The next year's draw moves with it.
    expect(randomBirthday(seededRng('x'), '2029-01-01', undefined, 'year')).not.toBe(
      randomBirthday(seededRng('x'), '2028-12-31', undefined, 'year'),
    );
  });

  it('keep birthdays in range and reject a birth year outside 1900 … this year', () => {
    for (let i = 0; i < 200; i++) {
      const b = randomBirthday(secureRng, '2024-02-29', 2024);
      expect(b >= '2024-01-01' && b <= '2024-02-29').toBe(true);
    }
    expect(() => randomBirthday(secureRng, TODAY, 1899)).toThrow(/birthYear/);
    expect(() => randomBirthday(secureRng, TODAY, 2027)).toThrow(/1900 至 2026/);
  });
});
