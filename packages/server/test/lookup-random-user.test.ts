import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getTestInstance, useTestApp } from './helpers.js';

const USER_KEYS = [
  'id',
  'name',
  'gender',
  'username',
  'phone',
  'email',
  'avatar',
  'birthday',
  'address',
  'company',
  'job',
  'website',
  'ip',
  'createdAt',
];
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const data = (file: string) => JSON.parse(readFileSync(new URL(`../../../data/${file}`, import.meta.url), 'utf8'));
const names = data('names.json') as { surnames: Array<[string, number]>; male: string[]; female: string[] };
const profile = data('user-profile.json') as { phonePrefixes: Record<string, string[]>; jobs: string[] };
const postcodes = data('postcodes.json') as Array<{
  province: string;
  city: string;
  district: string;
  postcode: string;
}>;
const PREFIXES = new Set(Object.values(profile.phonePrefixes).flat());
/** Surnames longest first, so 欧阳 is tried before 欧. */
const SURNAMES = names.surnames.map(([s]) => s).sort((a, b) => b.length - a.length);

function splitName(name: string): [string, string] {
  const s = SURNAMES.find((x) => name.startsWith(x));
  if (!s) throw new Error(`unknown surname in ${name}`);
  return [s, name.slice(s.length)];
}

describe('GET /api/random-user', () => {
  const t = useTestApp('sqlite');

  const get = async (query: string, headers: Record<string, string> = {}) => {
    const res = await t.app.inject({ url: `/api/random-user${query}`, headers });
    return { status: res.statusCode, body: res.json(), headers: res.headers };
  };

  it('returns one user by default with exactly the documented fields', async () => {
    const { status, body } = await get('');
    expect(status).toBe(200);
    expect(body).toMatchObject({ code: 200, msg: '请求成功' });
    expect(body.data).toHaveLength(1);
    const u = body.data[0];
    expect(Object.keys(u).sort()).toEqual([...USER_KEYS].sort());
    expect(Object.keys(u.address).sort()).toEqual(['city', 'province', 'street', 'zipCode']);
  });

  it('gives every user well-formed, realistic values', async () => {
    const { body } = await get('?count=100', { host: 'localhost:8080' });
    expect(body.data).toHaveLength(100);
    const ids = new Set<string>();
    for (const u of body.data) {
      ids.add(u.id);
      expect(u.id).toMatch(UUID_V4);
      expect(['男', '女']).toContain(u.gender);
      const [, given] = splitName(u.name);
      expect(u.gender === '男' ? names.male : names.female, u.name).toContain(given);
      expect(u.phone).toMatch(/^1[3-9]\d{9}$/);
      expect(PREFIXES.has(u.phone.slice(0, 3)), u.phone).toBe(true);
      expect(u.username).toMatch(/^[a-z0-9_.]+$/);
      expect(u.email).toMatch(/^[a-z0-9_.]+@[a-z0-9.]+\.[a-z]+$/);
      expect(u.avatar).toBe(`http://localhost:8080/api/random-avatar/image?seed=${u.id}`);
      expect(u.birthday).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(u.createdAt).toMatch(ISO_MS_UTC);
      const age = (Date.parse(u.createdAt) - Date.parse(u.birthday)) / (365.25 * 86400_000);
      expect(age).toBeGreaterThanOrEqual(17.9);
      expect(age).toBeLessThan(61.1);
      expect(Date.parse(u.createdAt)).toBeLessThanOrEqual(Date.now());
      expect(profile.jobs).toContain(u.job);
      expect(u.company).toMatch(/(有限公司|有限责任公司)$/);
      expect(u.website).toMatch(/^https:\/\/[a-z0-9.-]+\.[a-z]+(\/[\w.-]*)*$/);
      expect(u.ip).toMatch(/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/);
      expect(u.ip.split('.').every((o: string) => Number(o) <= 255)).toBe(true);
      expect(u.ip).not.toMatch(/^(10|127|0)\.|^192\.168\.|^(22[4-9]|2[3-5]\d)\./);
    }
    expect(ids.size).toBe(100);
  });

  it('keeps province, city and postcode consistent with data/postcodes.json', async () => {
    const { body } = await get('?count=100');
    for (const u of body.data) {
      const { province, city, street, zipCode } = u.address;
      expect(zipCode).toMatch(/^\d{6}$/);
      const rows = postcodes.filter((r) => r.province === province && r.city === city && r.postcode === zipCode);
      expect(rows.length, `${province} ${city} ${zipCode}`).toBeGreaterThan(0);
      // The street starts with the district whose postcode this is (or is a plain road in a city without districts).
      const districts = rows.map((r) => r.district);
      expect(
        districts.some((d) => street.startsWith(d)),
        `${street} in ${districts.join('/')}`,
      ).toBe(true);
      expect(street).toMatch(/\d+号/);
      // The company is registered in the user's city or province.
      const area = city.endsWith('市') ? city.replace(/市$/, '') : province.slice(0, 2);
      expect(u.company.startsWith(area), `${u.company} / ${city}`).toBe(true);
    }
  });

  it('honours gender in English or Chinese, any case', async () => {
    for (const [g, want] of [
      ['male', '男'],
      ['MALE', '男'],
      ['男', '男'],
      ['female', '女'],
      ['女', '女'],
    ]) {
      const { status, body } = await get(`?count=20&gender=${encodeURIComponent(g)}`);
      expect(status).toBe(200);
      for (const u of body.data) {
        expect(u.gender, g).toBe(want);
        expect(want === '男' ? names.male : names.female).toContain(splitName(u.name)[1]);
      }
    }
    const mixed = (await get('?count=100')).body.data.map((u: { gender: string }) => u.gender);
    expect(new Set(mixed)).toEqual(new Set(['男', '女']));
  });

  it('is reproducible with a seed: same seed, count and gender give the same JSON; more users only append', async () => {
    const a = (await get('?count=5&seed=hello')).body.data;
    const b = (await get('?seed=hello&count=5')).body.data;
    expect(b).toEqual(a);
    const more = (await get('?count=8&seed=hello')).body.data;
    expect(more.slice(0, 5)).toEqual(a);
    expect((await get('?count=5&seed=other')).body.data).not.toEqual(a);
    expect((await get('?count=5&seed=hello&gender=female')).body.data).not.toEqual(a);
    const n1 = (await get('?seed=42')).body.data;
    expect((await get('?seed=42')).body.data).toEqual(n1);
    // Seeded answers are dated before a fixed moment, so they never drift.
    for (const u of a) expect(Date.parse(u.createdAt)).toBeLessThan(Date.parse('2025-01-01T00:00:00.000Z'));
  });

  it('gives new users on every call without a seed and is not cached', async () => {
    const r1 = await get('?count=3');
    const r2 = await get('?count=3');
    expect(r1.body.data[0].id).not.toBe(r2.body.data[0].id);
    expect(r1.headers.etag).toBeUndefined();
  });

  it('links to an avatar this service actually serves', async () => {
    const u = (await get('?seed=avatar')).body.data[0];
    const res = await t.app.inject({ url: new URL(u.avatar).pathname + new URL(u.avatar).search });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^image\//);
  });

  it('uses PUBLIC_BASE_URL for the avatar link when set', async () => {
    const t2 = await getTestInstance('sqlite', { PUBLIC_BASE_URL: 'https://tianji.example.org/' });
    try {
      const u = (await t2.app.inject({ url: '/api/random-user' })).json().data[0];
      expect(u.avatar).toBe(`https://tianji.example.org/api/random-avatar/image?seed=${u.id}`);
    } finally {
      await t2.close();
    }
  });

  it('rejects count outside 1–100, a bad gender and an over-long seed, naming the parameter', async () => {
    const cases: Array<[string, string]> = [
      ['?count=0', 'count'],
      ['?count=101', 'count'],
      ['?count=abc', 'count'],
      ['?count=1.5', 'count'],
      ['?count=1&count=2', 'count'],
      ['?gender=x', 'gender'],
      ['?gender=unknown', 'gender'],
      [`?seed=${'s'.repeat(65)}`, 'seed'],
    ];
    for (const [q, param] of cases) {
      const { status, body } = await get(q);
      expect(status, q).toBe(500);
      expect(body, q).toMatchObject({ code: 500, data: null });
      expect(body.msg, q).toContain(`参数 ${param}`);
    }
    expect((await get('?gender=x')).body.msg).toContain('male');
    expect((await get('?count=101')).body.msg).toContain('100');
  });
});
