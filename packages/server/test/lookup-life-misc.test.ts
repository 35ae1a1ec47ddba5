import { describe, expect, it } from 'vitest';
import { useTestApp } from './helpers.js';

describe('life services and random strings over HTTP', () => {
  const t = useTestApp('sqlite');
  const get = (url: string) => t.app.inject(url);

  it('bmi answers the Chinese category and names a bad parameter', async () => {
    const ok = await get('/api/bmi?height=175&weight=70');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      code: 200,
      msg: '请求成功',
      data: { bmi: 22.86, category: '正常', standard: 'china' },
    });
    const who = await get('/api/bmi?height=100&weight=24.5&standard=who');
    expect(who.json().data.category).toBe('正常');
    const bad = await get('/api/bmi?height=20&weight=70');
    expect(bad.statusCode).toBe(500);
    expect(bad.json().msg).toContain('height');
    expect((await get('/api/bmi?weight=70')).json().msg).toContain('height');
  });

  it('a cached answer is the same envelope with a fresh timestamp', async () => {
    const first = await get('/api/bmi?height=180&weight=75');
    await new Promise((r) => setTimeout(r, 5));
    const again = await get('/api/bmi?height=180&weight=75');
    expect(again.headers['content-type']).toContain('application/json');
    expect(again.headers.etag).toBe(first.headers.etag);
    const [a, b] = [first.json(), again.json()];
    expect(Object.keys(b)).toEqual(['code', 'msg', 'data', 'timestamp']);
    expect(b.data).toEqual(a.data);
    expect(b.timestamp).toBeGreaterThan(a.timestamp);
    expect(Math.abs(b.timestamp - Date.now())).toBeLessThan(5000);
  });

  it('postcode finds provincial capitals by name and places by postcode', async () => {
    const sz = await get(`/api/postcode?keyword=${encodeURIComponent('深圳')}`);
    expect(sz.json().data.items[0]).toMatchObject({ city: '深圳市', postcode: '518000' });
    const byCode = await get('/api/postcode?keyword=100000');
    expect(byCode.json().data.items.some((r: { province: string }) => r.province === '北京市')).toBe(true);
    const none = await get(`/api/postcode?keyword=${encodeURIComponent('不存在的地方')}`);
    expect(none.statusCode).toBe(500);
    expect(none.json().msg).toBe(
      '参数 keyword 无效：没有与之匹配的地区或邮编，应为省、市、区县名称或 1–6 位邮编数字，收到 "不存在的地方"',
    );
  });

  it('dialing-code looks up by Chinese name and code', async () => {
    expect((await get(`/api/dialing-code?keyword=${encodeURIComponent('中国')}`)).json().data[0]).toMatchObject({
      iso2: 'CN',
      dial: '+86',
    });
    expect((await get('/api/dialing-code?keyword=%2B81')).json().data[0].iso2).toBe('JP');
    const none = await get('/api/dialing-code?keyword=%2B45Y');
    expect(none.statusCode).toBe(500);
    expect(none.json().msg).toBe(
      '参数 keyword 无效：没有与之匹配的国家或地区，应为国家或地区名称、ISO 代码或区号，收到 "+45Y"',
    );
  });

  it('random-string respects length, charset, count and seed', async () => {
    const r = (await get('/api/random-string?length=32&charset=hex&count=5')).json().data;
    expect(r.strings).toHaveLength(5);
    for (const s of r.strings) expect(s).toMatch(/^[0-9a-f]{32}$/);
    expect(r.secure).toBe(true);
    expect(r.entropyBits).toBe(128);
    const a = (await get('/api/random-string?seed=abc&length=20')).json().data.strings;
    const b = (await get('/api/random-string?seed=abc&length=20')).json().data.strings;
    expect(a).toEqual(b);
    const custom = (await get(`/api/random-string?custom=${encodeURIComponent('甲乙')}&length=10`)).json().data
      .strings[0];
    expect(custom).toMatch(/^[甲乙]{10}$/);
    const bad = await get('/api/random-string?length=5000');
    expect(bad.statusCode).toBe(500);
    expect(bad.json().msg).toMatch(/length/);
    expect((await get('/api/random-string?charset=emoji')).json().msg).toContain('charset');
  });
});
