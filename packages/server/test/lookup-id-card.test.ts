import { describe, expect, it } from 'vitest';
import { todayInShanghai } from '../src/shared/shanghai-day.js';
import { checkDigit, composeIdCard } from '../src/public/shared/id-card.js';
import { useTestApp } from './helpers.js';

describe('GET /api/id-card', () => {
  const t = useTestApp('sqlite');
  const get = (id: string) => t.app.inject(`/api/id-card?id=${encodeURIComponent(id)}`);

  it('explains the example number of GB 11643-1999', async () => {
    const res = await get('11010519491231002X');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ code: 200, msg: '请求成功' });
    expect(body.data).toMatchObject({
      valid: true,
      id18: '11010519491231002X',
      gender: '女',
      birthday: '1949-12-31',
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
    const today = todayInShanghai();
    expect(body.data.age).toBe(Number(today.slice(0, 4)) - 1950 + (today.slice(5) >= '12-31' ? 1 : 0));
    expect(body.data).not.toHaveProperty('reason');
  });

  it('accepts a lower-case x and converts a 15-digit number', async () => {
    expect((await get('11010519491231002x')).json().data.valid).toBe(true);
    const old = (await get('130503670401001')).json().data;
    expect(old).toMatchObject({
      valid: true,
      id18: '130503196704010016',
      birthday: '1967-04-01',
      gender: '男',
      region: { province: '河北省', city: '邢台市' },
    });
  });

  it('resolves a historical region code that old cards still carry', async () => {
    const data = (await get(composeIdCard('110103', '1970-05-01', 21))).json().data;
    expect(data).toMatchObject({ valid: true, region: { district: '崇文区', historical: true } });
  });

  it('answers 200 with valid:false and the exact reason for a well-formed bad number', async () => {
    const cases: [string, string, RegExp][] = [
      ['110105194912310021', 'checksum', /第 18 位应为 X，实际为 1/],
      ['110105199002300013', 'birthday', /19900230 不存在/],
      [composeIdCard('000000', '1990-01-01', 1), 'region', /地区码 000000/],
      ['12345', 'length', /实际为 5 位/],
      ['11010519491231X02X', 'characters', /前 17 位/],
      [composeIdCard('110105', '2999-01-01', 1), 'future_birthday', /晚于今天/],
    ];
    for (const [id, problem, reason] of cases) {
      const res = await get(id);
      expect(res.statusCode, id).toBe(200);
      expect(res.json().data, id).toMatchObject({ valid: false, problem });
      expect(res.json().data.reason, id).toMatch(reason);
      expect(res.json().data.gender, id).toBeUndefined();
    }
  });

  it('rejects a malformed parameter with a 500 that names id', async () => {
    for (const url of [
      '/api/id-card',
      '/api/id-card?id=',
      '/api/id-card?id=1101051949123100211',
      `/api/id-card?id=${encodeURIComponent('11010519491231002Ｘ')}`,
      '/api/id-card?id=abc',
    ]) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(500);
      expect(res.json(), url).toMatchObject({ code: 500, data: null });
      expect(res.json().msg, url).toContain('参数 id');
    }
  });

  it('sends cache headers and answers 304 to a matching If-None-Match', async () => {
    const first = await get('11010519491231002X');
    expect(first.headers['cache-control']).toMatch(/max-age=\d+/);
    const again = await t.app.inject({
      url: '/api/id-card?id=11010519491231002X',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('validates numbers built from random parts with the standard check digit', async () => {
    for (const [code, day, seq] of [
      ['440305', '1990-06-15', 2],
      ['650102', '2001-02-28', 997],
      ['542621', '1955-10-01', 311],
    ] as const) {
      const id = composeIdCard(code, day, seq);
      expect(id.slice(17)).toBe(checkDigit(id));
      expect((await get(id)).json().data).toMatchObject({
        valid: true,
        birthday: day,
        gender: seq % 2 ? '男' : '女',
        region: { code },
      });
    }
  });
});
