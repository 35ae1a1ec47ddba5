import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LookupError } from '../../../errors.js';
import { classifyAddress } from '../../../engines/ip/ip-address.js';
import { SEEDED_REFERENCE, buildUserData, generateUsers, loadUserData, parseGender } from './random-user.js';
import { loadPostcodes } from '../../../engines/postcodes/postcodes.js';

const data = loadUserData();
const read = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../../../../../data/${name}`, import.meta.url), 'utf8'));
const names = read('names.json') as { surnames: Array<[string, number]>; male: string[]; female: string[] };
const profile = read('user-profile.json') as { phonePrefixes: Record<string, string[]> };
const gen = (count: number, seed?: string, gender?: 'male' | 'female') =>
  generateUsers(data, { count, seed, gender, baseUrl: 'https://x.test' });

describe('parseGender', () => {
  it('accepts male/female in any case and 男/女; empty means mixed', () => {
    expect(parseGender('male')).toBe('male');
    expect(parseGender(' Female ')).toBe('female');
    expect(parseGender('男')).toBe('male');
    expect(parseGender('女')).toBe('female');
    expect(parseGender(undefined)).toBeUndefined();
    expect(parseGender('')).toBeUndefined();
  });
  it('rejects anything else, naming gender and the allowed values', () => {
    for (const bad of ['m', 'man', '男性', 'other']) expect(() => parseGender(bad)).toThrow(LookupError);
    expect(() => parseGender('x')).toThrow(/参数 gender.*male、female、男 或 女.*"x"/);
  });
});

describe('generateUsers', () => {
  it('is a pure function of seed, gender and index', () => {
    expect(gen(3, 's')).toEqual(gen(3, 's'));
    expect(gen(5, 's').slice(0, 3)).toEqual(gen(3, 's'));
    expect(gen(3, 's', 'male')).not.toEqual(gen(3, 's'));
    expect(gen(1, '1')).not.toEqual(gen(1, '2'));
  });

  it('dates seeded users before the fixed reference and unseeded ones before now', () => {
    for (const u of gen(20, 'seed')) expect(Date.parse(u.createdAt)).toBeLessThan(SEEDED_REFERENCE.getTime());
    const now = new Date('2030-06-01T00:00:00Z');
    for (const u of generateUsers(data, { count: 20, baseUrl: '', now })) {
      const t = Date.parse(u.createdAt);
      expect(t).toBeLessThan(now.getTime());
      expect(t).toBeGreaterThan(now.getTime() - 3 * 366 * 86400_000);
    }
  });

  it('gives v4 UUIDs, public addresses and ages 18–60 on the day of createdAt (Asia/Shanghai)', () => {
    const firstOctets = new Set<string>();
    for (const u of [...gen(1000, 'shape'), ...generateUsers(data, { count: 1000, baseUrl: '' })]) {
      expect(u.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(classifyAddress(u.ip).kind, u.ip).toBe('public');
      firstOctets.add(u.ip.split('.')[0]);
      const created = new Date(Date.parse(u.createdAt) + 8 * 3600_000).toISOString().slice(0, 10);
      const age =
        Number(created.slice(0, 4)) - Number(u.birthday.slice(0, 4)) - (created.slice(5) < u.birthday.slice(5) ? 1 : 0);
      expect(age, `${u.birthday} ${u.createdAt}`).toBeGreaterThanOrEqual(18);
      expect(age, `${u.birthday} ${u.createdAt}`).toBeLessThanOrEqual(60);
    }
    expect(firstOctets.size).toBeGreaterThan(150);
  });

  it('draws common surnames far more often than rare ones', () => {
    const counts = new Map<string, number>();
    for (const u of gen(2000, 'freq'))
      for (const [s] of names.surnames) if (u.name.startsWith(s)) counts.set(s, (counts.get(s) ?? 0) + 1);
    const top5 = ['王', '李', '张', '刘', '陈'].reduce((n, s) => n + (counts.get(s) ?? 0), 0);
    // The five commonest surnames are about 30 % of the population (and of the weights).
    expect(top5 / 2000).toBeGreaterThan(0.2);
    expect(top5 / 2000).toBeLessThan(0.4);
    expect(counts.get('王')!).toBeGreaterThan(counts.get('常') ?? 0);
  });

  it('uses the gender’s own given names and a pinyin username', () => {
    for (const u of gen(200, 'g', 'female')) {
      expect(u.gender).toBe('女');
      expect(names.female.some((g) => u.name.endsWith(g))).toBe(true);
      expect(u.username).toMatch(/^[a-z]+(_?[a-z0-9]+)*$/);
    }
  });
});

describe('curated data', () => {
  it('keeps the male and female given-name lists apart and free of repeats', () => {
    const male = new Set(names.male);
    expect(names.female.filter((n) => male.has(n))).toEqual([]);
    expect(male.size).toBe(names.male.length);
    expect(new Set(names.female).size).toBe(names.female.length);
    for (const [s, w] of names.surnames) {
      expect(s).toMatch(/^\p{Script=Han}{1,2}$/u);
      expect(w).toBeGreaterThan(0);
    }
  });

  it('lists only real three-digit mobile segments (13x, 15x, 16x, 17x, 18x, 19x)', () => {
    const all = Object.values(profile.phonePrefixes).flat();
    expect(new Set(all).size).toBe(all.length);
    for (const p of all) expect(p).toMatch(/^1(3\d|5[0-35-9]|66|7[235-8]|8\d|9[0-35-9]|92)$/);
    expect(Object.keys(profile.phonePrefixes)).toEqual(['中国移动', '中国联通', '中国电信', '中国广电']);
  });
});

describe('the tables a user is made of', () => {
  it('refuse to load with a piece that would need escaping in JSON (those fields are sent unescaped)', () => {
    const full = read('user-profile.json');
    expect(() => buildUserData(names, full, loadPostcodes())).not.toThrow();
    const quoted = { ...full, emailDomains: [...full.emailDomains, ['evil".com', 1]] };
    expect(() => buildUserData(names, quoted, loadPostcodes())).toThrow(
      /"evil\\".com" in a data table is not plain ASCII/,
    );
    const slashed = { ...full, phonePrefixes: { ...full.phonePrefixes, x: ['13\\'] } };
    expect(() => buildUserData(names, slashed, loadPostcodes())).toThrow(/not plain ASCII/);
  });
});
