import { Resvg } from '@resvg/resvg-js';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { inspectIdCard } from '../src/public/shared/id-card.js';
import { todayInShanghai } from '../src/shared/shanghai-day.js';
import { useTestApp } from './helpers.js';

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** resvg's parser rejects malformed SVG; the parsed size must be the one asked for. */
const svgSize = (svg: string) => {
  const r = new Resvg(svg, { font: { loadSystemFonts: false } });
  return [r.width, r.height];
};

describe('random generation endpoints (id-card, emoji, avatar, image, person)', () => {
  const t = useTestApp('sqlite');
  const get = (url: string) => t.app.inject(url);
  const data = async (url: string) => {
    const res = await get(url);
    expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(200);
    return res.json().data;
  };
  const failure = async (url: string, param: string) => {
    const res = await get(url);
    expect(res.statusCode, url).toBe(500);
    expect(res.json(), url).toMatchObject({ code: 500, data: null });
    expect(res.json().msg, url).toContain(`参数 ${param}`);
  };

  describe('/api/random-id-card', () => {
    it('gives valid numbers that match the filters and say what they encode', async () => {
      const cards = await data(
        `/api/random-id-card?count=20&gender=${encodeURIComponent('女')}&province=${encodeURIComponent('四川')}&birthYear=1988`,
      );
      expect(cards).toHaveLength(20);
      for (const c of cards) {
        expect(c.id).toMatch(/^51\d{4}1988\d{7}[\dX]$/);
        expect(Number(c.id[16]) % 2).toBe(0);
        expect(c).toMatchObject({ gender: '女', region: { province: '四川省', historical: false } });
        const check = inspectIdCard(c.id, todayInShanghai());
        expect(check).toMatchObject({
          valid: true,
          birthday: c.birthday,
          zodiac: c.zodiac,
          constellation: c.constellation,
          age: c.age,
        });
      }
      expect((await data('/api/random-id-card?province=44&gender=male'))[0].id).toMatch(/^44\d{14}[13579][\dX]$/);
    });

    it('ages every seeded holder 18–70 on the day of the request, as documented', async () => {
      const ages: number[] = [];
      for (let s = 0; s < 30; s++) {
        for (const c of await data(`/api/random-id-card?seed=age${s}&count=100`)) ages.push(c.age);
        for (const p of await data(`/api/random-person?seed=age${s}&count=20`)) ages.push(p.age);
      }
      expect(ages).toHaveLength(3600);
      expect(ages.filter((a) => a < 18 || a > 70)).toEqual([]);
    });

    it('reproduces a seed and bounds every parameter', async () => {
      expect(await data('/api/random-id-card?seed=abc&count=5')).toEqual(
        await data('/api/random-id-card?seed=abc&count=5'),
      );
      expect(await data('/api/random-id-card')).toHaveLength(1);
      await failure('/api/random-id-card?count=0', 'count');
      await failure('/api/random-id-card?count=101', 'count');
      await failure('/api/random-id-card?birthYear=1899', 'birthYear');
      await failure(`/api/random-id-card?birthYear=${Number(todayInShanghai().slice(0, 4)) + 1}`, 'birthYear');
      await failure('/api/random-id-card?province=Atlantis', 'province');
      await failure('/api/random-id-card?gender=other', 'gender');
    });
  });

  describe('/api/random-emoji', () => {
    it('gives emoji with Chinese names and code points, by group key or Chinese name', async () => {
      const list = await data('/api/random-emoji?group=food-drink&count=10');
      expect(list).toHaveLength(10);
      expect(new Set(list.map((e: { emoji: string }) => e.emoji)).size).toBe(10);
      for (const e of list) {
        expect(e).toMatchObject({ group: 'food-drink', groupName: '食物和饮料' });
        expect(e.name).toMatch(/\p{Script=Han}/u);
        expect(e.codePoints.map((c: string) => String.fromCodePoint(parseInt(c.slice(2), 16))).join('')).toBe(e.emoji);
      }
      const flags = await data(`/api/random-emoji?group=${encodeURIComponent('旗帜')}&count=3`);
      expect(flags.every((e: { group: string }) => e.group === 'flags')).toBe(true);
      expect(await data('/api/random-emoji?seed=7&count=4')).toEqual(await data('/api/random-emoji?seed=7&count=4'));
      await failure('/api/random-emoji?group=component', 'group');
      await failure('/api/random-emoji?count=500', 'count');
    });
  });

  describe('/api/random-avatar', () => {
    it('links to avatars this service serves, with the licence of the style', async () => {
      const [a] = await data('/api/random-avatar?seed=alice');
      expect(a).toMatchObject({ style: 'lorelei', seed: 'alice', license: { name: 'CC0 1.0' }, attribution: null });
      expect(a.url).toBe('http://localhost:80/api/random-avatar/image?style=lorelei&seed=alice');
      const [cc] = await data('/api/random-avatar?style=adventurer&seed=bob');
      expect(cc.license.name).toBe('CC BY 4.0');
      expect(cc.attribution).toContain('Lisa Wischofsky');
      const many = await data('/api/random-avatar?style=random&count=5');
      expect(new Set(many.map((x: { seed: string }) => x.seed)).size).toBe(5);
      await failure('/api/random-avatar?style=avataaars', 'style');
      await failure('/api/random-avatar?size=8', 'size');
    });

    it('serves the SVG and the PNG at the linked URLs, the same picture for the same seed', async () => {
      const [a] = await data('/api/random-avatar?seed=carol&size=128');
      const svg = await get(a.svgUrl.replace('http://localhost:80', ''));
      expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
      expect(svgSize(svg.body)).toEqual([128, 128]);
      const png = await get(a.pngUrl.replace('http://localhost:80', ''));
      expect(png.headers['content-type']).toBe('image/png');
      expect(png.rawPayload.subarray(0, 8)).toEqual(PNG_MAGIC);
      const img = PNG.sync.read(png.rawPayload);
      expect([img.width, img.height]).toEqual([128, 128]);
      expect((await get(a.svgUrl.replace('http://localhost:80', ''))).body).toBe(svg.body);
    });

    it('keeps the /api/random-user avatar link working: default style and SVG, cached with an ETag', async () => {
      const [user] = await data('/api/random-user?seed=u1');
      const path = user.avatar.replace(/^https?:\/\/[^/]+/, '');
      expect(path).toMatch(/^\/api\/random-avatar\/image\?seed=/);
      const res = await get(path);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
      expect(res.headers['cache-control']).toContain('max-age=31536000');
      expect(res.body).toContain('<dc:title>Lorelei</dc:title>');
      const again = await t.app.inject({ url: path, headers: { 'if-none-match': String(res.headers.etag) } });
      expect(again.statusCode).toBe(304);
      const unseeded = await get('/api/random-avatar/image');
      expect(unseeded.headers['cache-control']).toBe('no-store');
      await failure('/api/random-avatar/image?format=gif', 'format');
    });
  });

  describe('/api/random-image', () => {
    it('links to generated images of the requested size and type', async () => {
      const [img] = await data('/api/random-image?width=320&height=200&type=gradient&seed=sky');
      expect(img).toMatchObject({ width: 320, height: 200, type: 'gradient', seed: 'sky', format: 'png' });
      expect(img.url).toBe(img.pngUrl);
      const png = await get(img.pngUrl.replace('http://localhost:80', ''));
      expect(png.rawPayload.subarray(0, 8)).toEqual(PNG_MAGIC);
      const decoded = PNG.sync.read(png.rawPayload);
      expect([decoded.width, decoded.height]).toEqual([320, 200]);
      const svg = await get(img.svgUrl.replace('http://localhost:80', ''));
      expect(svgSize(svg.body)).toEqual([320, 200]);
      const [pattern] = await data('/api/random-image?type=pattern&format=svg&width=64&height=48');
      expect(pattern.url).toBe(pattern.svgUrl);
      expect(svgSize((await get(pattern.url.replace('http://localhost:80', ''))).body)).toEqual([64, 48]);
    });

    it('gives the same picture for the same seed, and bounds the size', async () => {
      const url = '/api/random-image/image?width=100&height=80&seed=same&format=svg';
      expect((await get(url)).body).toBe((await get(url)).body);
      expect(await data('/api/random-image?seed=x&count=3')).toEqual(await data('/api/random-image?seed=x&count=3'));
      await failure('/api/random-image?width=15', 'width');
      await failure('/api/random-image/image?height=2049', 'height');
      await failure('/api/random-image?type=noise', 'type');
    });
  });

  describe('/api/random-person', () => {
    it('gives a self-consistent identity', async () => {
      const people = await data('/api/random-person?count=30');
      for (const p of people) {
        const id = inspectIdCard(p.idCard, todayInShanghai());
        expect(id.valid).toBe(true);
        expect(p.idCard.slice(0, 6)).toBe(p.address.regionCode);
        expect(id).toMatchObject({
          birthday: p.birthday,
          gender: p.gender,
          zodiac: p.zodiac,
          constellation: p.constellation,
          age: p.age,
        });
        expect(p.address.postcode).toMatch(/^\d{6}$/);
        expect(p.phone).toMatch(/^1\d{10}$/);
        expect(['O', 'A', 'B', 'AB']).toContain(p.bloodType);
        expect(p.ethnicity).toMatch(/族$/);
      }
    });

    it('honours gender and seed, and names a bad parameter', async () => {
      const women = await data('/api/random-person?gender=female&count=10');
      expect(
        women.every((p: { gender: string; idCard: string }) => p.gender === '女' && Number(p.idCard[16]) % 2 === 0),
      ).toBe(true);
      expect(await data('/api/random-person?seed=p&count=3')).toEqual(await data('/api/random-person?seed=p&count=3'));
      await failure('/api/random-person?gender=x', 'gender');
      await failure('/api/random-person?count=101', 'count');
    });
  });
});
