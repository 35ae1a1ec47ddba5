import { describe, expect, it } from 'vitest';
import { useTestApp } from './helpers.js';
import { todayInShanghai } from '../src/shared/shanghai-day.js';

/** The calendar endpoints of the life group: almanac, solar terms, statutory holidays, licence plates. No database involved. */
const t = useTestApp('sqlite');

async function get(url: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url, headers });
}

/** A success: 200, the envelope, and its data. */
async function ok<T = unknown>(url: string): Promise<T> {
  const res = await get(url);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(['code', 'data', 'msg', 'timestamp']);
  expect(body).toMatchObject({ code: 200, msg: '请求成功' });
  expect(Number.isInteger(body.timestamp)).toBe(true);
  return body.data as T;
}

/** A failure: 500 in the envelope, its msg naming the parameter. */
async function fails(url: string, ...msgParts: Array<string | RegExp>): Promise<string> {
  const res = await get(url);
  expect(res.statusCode, res.body).toBe(500);
  const body = res.json();
  expect(body).toMatchObject({ code: 500, data: null });
  expect(Number.isInteger(body.timestamp)).toBe(true);
  for (const p of msgParts) expect(body.msg).toMatch(p);
  expect(body.msg).not.toMatch(/at .*\.(ts|js):\d+/); // never a stack trace
  return body.msg as string;
}

/** Deterministic answers: Cache-Control, an ETag, and 304 for a matching If-None-Match. */
async function expectConditional(url: string) {
  const first = await get(url);
  expect(first.statusCode).toBe(200);
  expect(first.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
  const etag = first.headers.etag as string;
  expect(etag).toMatch(/^".+"$/);
  const again = await get(url, { 'if-none-match': etag });
  expect(again.statusCode).toBe(304);
  expect(again.body).toBe('');
  expect((await get(url, { 'if-none-match': '"stale"' })).statusCode).toBe(200);
}

const unpadded = (ymd: string) => ymd.split('-').map(Number).join('-');

describe('GET /api/almanac', () => {
  type Entry = Record<string, string>;
  const FIELDS = ['chong', 'date', 'hour', 'hours', 'ji', 'jiuxing', 'nayin', 'sha', 'yi'];

  it('answers exactly 12 entries with the contract’s fields, in order 23:00-00:59 … 21:00-22:59', async () => {
    const data = await ok<Entry[]>('/api/almanac?date=2026-01-05');
    expect(data).toHaveLength(12);
    for (const e of data) {
      expect(Object.keys(e).sort()).toEqual(FIELDS);
      for (const f of FIELDS) expect(typeof e[f]).toBe('string');
      expect(e.date).toBe('2026-1-5');
      expect(e.hours).toMatch(/^\d{2}:\d{2}-\d{2}:\d{2}$/);
      expect(e.yi).not.toBe('');
      expect(e.ji).not.toBe('');
    }
    expect(data.map((e) => e.hours)).toEqual([
      '23:00-00:59',
      '01:00-02:59',
      '03:00-04:59',
      '05:00-06:59',
      '07:00-08:59',
      '09:00-10:59',
      '11:00-12:59',
      '13:00-14:59',
      '15:00-16:59',
      '17:00-18:59',
      '19:00-20:59',
      '21:00-22:59',
    ]);
    expect(data.map((e) => e.hour).join('')).toBe('子时丑时寅时卯时辰时巳时午时未时申时酉时戌时亥时');
  });

  it('gives 2026-11-21’s 子时 as 甲子, clashing with the horse (戊午)', async () => {
    const [zi] = await ok<Entry[]>('/api/almanac?date=2026-11-21');
    expect(zi).toMatchObject({
      date: '2026-11-21',
      hours: '23:00-00:59',
      hour: '子时',
      chong: '(戊午)马',
      sha: '南',
      nayin: '海中金',
    });
  });

  it('defaults to today in Asia/Shanghai', async () => {
    const data = await ok<Entry[]>('/api/almanac');
    expect(data[0].date).toBe(unpadded(todayInShanghai()));
  });

  it('answers both ends of the range', async () => {
    expect(await ok<Entry[]>('/api/almanac?date=1900-01-01')).toHaveLength(12);
    expect((await ok<Entry[]>('/api/almanac?date=2100-12-31'))[0].date).toBe('2100-12-31');
  });

  it('takes its own unpadded date back: 2026-1-5 gives the same answer as 2026-01-05', async () => {
    const padded = await ok<Entry[]>('/api/almanac?date=2026-01-05');
    expect(await ok<Entry[]>(`/api/almanac?date=${padded[0].date}`)).toEqual(padded);
    expect(await ok<Entry[]>('/api/almanac?date=2026-1-05')).toEqual(padded);
    expect(await ok<Entry[]>('/api/almanac?date=2026-01-5')).toEqual(padded);
    await fails('/api/almanac?date=2026-001-5', /参数 date/, /2026-1-5/);
    await fails('/api/almanac?date=2025-2-30', /参数 date/, /"2025-2-30"/);
  });

  it('rejects malformed, impossible and out-of-range dates, naming the parameter and the value', async () => {
    await fails('/api/almanac?date=2024-13-1', /参数 date/, /YYYY-MM-DD/, /1900-01-01 至 2100-12-31/, /"2024-13-1"/);
    await fails('/api/almanac?date=2024-13-01', /参数 date/, /"2024-13-01"/);
    await fails('/api/almanac?date=2025-02-30', /参数 date/, /"2025-02-30"/);
    await fails('/api/almanac?date=1899-12-31', /参数 date/, /1900-01-01/);
    await fails('/api/almanac?date=2101-01-01', /参数 date/, /2100-12-31/);
    // An empty optional parameter means "not given" (today), as /docs' forms send it.
    expect(await ok<unknown[]>('/api/almanac?date=')).toHaveLength(12);
    await fails('/api/almanac?date=2026-11-21&date=2026-11-22', /参数 date/);
    await fails(`/api/almanac?date=${encodeURIComponent("2026-11-21' OR 1=1")}`, /参数 date/);
  });

  it('sends Cache-Control and an ETag and answers If-None-Match with 304', async () => {
    await expectConditional('/api/almanac?date=2026-11-21');
    await expectConditional('/api/almanac');
  });
});

describe('GET /api/solar-term', () => {
  type Term = { name: string; date: string };

  it('answers the 24 terms of the Gregorian year, 小寒 … 冬至, chronological, with Beijing-time moments', async () => {
    const data = await ok<Term[]>('/api/solar-term?year=2026');
    expect(data).toHaveLength(24);
    for (const term of data) {
      expect(Object.keys(term).sort()).toEqual(['date', 'name']);
      expect(term.date).toMatch(/^2026-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    }
    expect(data[0].name).toBe('小寒');
    expect(data[23]).toMatchObject({ name: '冬至', date: expect.stringMatching(/^2026-12-22 /) });
    expect(data.map((x) => x.date)).toEqual([...data.map((x) => x.date)].sort());
    const lichun = data.find((x) => x.name === '立春')!;
    expect(lichun.date >= '2026-02-04 04:01:00' && lichun.date <= '2026-02-04 04:03:00').toBe(true);
  });

  it('knows 2024 冬至 and 2025 春分 to the minute', async () => {
    const dz = (await ok<Term[]>('/api/solar-term?year=2024')).find((x) => x.name === '冬至')!;
    expect(dz.date.slice(0, 16)).toBe('2024-12-21 17:20');
    const cf = (await ok<Term[]>('/api/solar-term?year=2025')).find((x) => x.name === '春分')!;
    expect(cf.date.slice(0, 16)).toBe('2025-03-20 17:01');
  });

  it('defaults to the current year in Asia/Shanghai and answers the range’s ends', async () => {
    const data = await ok<Term[]>('/api/solar-term');
    expect(data[0].date.slice(0, 4)).toBe(todayInShanghai().slice(0, 4));
    expect(await ok<Term[]>('/api/solar-term?year=1900')).toHaveLength(24);
    expect(await ok<Term[]>('/api/solar-term?year=2100')).toHaveLength(24);
  });

  it('rejects years outside 1900–2100 and non-integers, naming the parameter', async () => {
    await fails('/api/solar-term?year=1899', /参数 year/, /1900 至 2100/);
    await fails('/api/solar-term?year=2101', /参数 year/, /1900 至 2100/);
    await fails('/api/solar-term?year=abc', /参数 year/, /"abc"/);
    await fails('/api/solar-term?year=2026.5', /参数 year/);
    await fails('/api/solar-term?year=99999999999999999999', /参数 year/);
  });

  it('sends Cache-Control and an ETag and answers If-None-Match with 304', async () => {
    await expectConditional('/api/solar-term?year=2026');
  });
});

describe('GET /api/holiday', () => {
  type Holiday = {
    name: string;
    start: string;
    end: string;
    distance: number;
    length: number;
    balance: number;
    work: string[];
  };
  const daysFromToday = (ymd: string) =>
    Math.round((Date.parse(`${ymd}T00:00:00Z`) - Date.parse(`${todayInShanghai()}T00:00:00Z`)) / 86_400_000);

  it('answers 2025 春节 as 01-28 … 02-04, 8 days, make-up days 01-26 and 02-08, balance 4, distance from today', async () => {
    const data = await ok<Holiday[]>('/api/holiday?year=2025');
    for (const h of data) {
      expect(Object.keys(h).sort()).toEqual(['balance', 'distance', 'end', 'length', 'name', 'start', 'work']);
      expect(h.start).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(h.end).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      for (const w of h.work) expect(w).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(Number.isInteger(h.distance) && Number.isInteger(h.length) && Number.isInteger(h.balance)).toBe(true);
      expect(h.distance).toBe(daysFromToday(h.start));
    }
    expect(data.find((h) => h.name === '春节')).toEqual({
      name: '春节',
      start: '2025-01-28',
      end: '2025-02-04',
      distance: daysFromToday('2025-01-28'),
      length: 8,
      balance: 4,
      work: ['2025-01-26', '2025-02-08'],
    });
    expect(data.map((h) => h.name)).toEqual(['元旦', '春节', '清明节', '劳动节', '端午节', '国庆节、中秋节']);
    expect(data.find((h) => h.name === '劳动节')).toMatchObject({
      start: '2025-05-01',
      end: '2025-05-05',
      length: 5,
      balance: 2,
      work: ['2025-04-27'],
    });
  });

  it('answers 2023’s combined 中秋节、国庆节 block as one entry', async () => {
    const data = await ok<Holiday[]>('/api/holiday?year=2023');
    expect(data.find((h) => h.name === '中秋节、国庆节')).toMatchObject({
      start: '2023-09-29',
      end: '2023-10-06',
      length: 8,
      balance: 4,
      work: ['2023-10-07', '2023-10-08'],
    });
    expect(data[0]).toMatchObject({ name: '元旦', start: '2022-12-31', end: '2023-01-02' });
  });

  it('defaults to the current year in Asia/Shanghai', async () => {
    const year = todayInShanghai().slice(0, 4);
    const res = await get('/api/holiday');
    if (res.statusCode === 200) {
      expect(res.json().data.every((h: Holiday) => h.end.startsWith(year))).toBe(true);
    } else {
      // A year whose notice is not in the data yet: the answer says so instead of guessing.
      await fails('/api/holiday', /参数 year/, new RegExp(year));
    }
  });

  it('refuses a year without a published schedule, naming the years that have one', async () => {
    const msg = await fails('/api/holiday?year=2099', /参数 year/, /2099/, /尚未发布/, /2004 至 20\d\d/);
    expect(msg).toMatch(/"2099"/);
    await fails('/api/holiday?year=1990', /参数 year/, /2004 至/);
    await fails('/api/holiday?year=1800', /参数 year/, /1900 至 2100/);
    await fails('/api/holiday?year=next', /参数 year/, /"next"/);
  });

  it('sends Cache-Control and an ETag and answers If-None-Match with 304', async () => {
    await expectConditional('/api/holiday?year=2025');
  });
});

describe('GET /api/license-plate', () => {
  type Plate = { province: string; city: string; code: string; prefix: string; type?: string; note?: string };

  it('finds 京A in 北京 and 粤B in 深圳', async () => {
    const jingA = await ok<Plate[]>(`/api/license-plate?keyword=${encodeURIComponent('京A')}`);
    expect(jingA).toEqual([{ province: '北京市', city: '北京市', code: '京', prefix: '京A' }]);
    const yueB = await ok<Plate[]>(`/api/license-plate?keyword=${encodeURIComponent('粤B')}`);
    expect(yueB).toEqual([{ province: '广东省', city: '深圳市', code: '粤', prefix: '粤B' }]);
  });

  it('finds prefixes by city and province name', async () => {
    const shenzhen = await ok<Plate[]>(`/api/license-plate?keyword=${encodeURIComponent('深圳')}`);
    expect(shenzhen.map((p) => p.prefix)).toEqual(['粤B']);
    const guangdong = await ok<Plate[]>(`/api/license-plate?keyword=${encodeURIComponent('广东')}`);
    expect(guangdong.length).toBeGreaterThan(15);
    expect(guangdong.every((p) => p.province === '广东省' && p.code === '粤' && /^粤[A-Z]$/.test(p.prefix))).toBe(true);
    const jing = await ok<Plate[]>(`/api/license-plate?keyword=${encodeURIComponent('京')}`);
    expect(jing.length).toBeGreaterThan(10);
    expect(jing.every((p) => p.code === '京')).toBe(true);
  });

  it('answers every prefix of the 31 provincial regions when keyword is omitted, and [] when nothing matches', async () => {
    const all = await ok<Plate[]>('/api/license-plate');
    expect(all.length).toBeGreaterThan(400);
    expect(new Set(all.map((p) => p.code)).size).toBe(31);
    for (const p of all) expect(Object.keys(p).sort()).toEqual(['city', 'code', 'prefix', 'province']);
    expect(await ok<Plate[]>('/api/license-plate?keyword=')).toHaveLength(all.length);
    expect(await ok<Plate[]>('/api/license-plate?keyword=zzz')).toEqual([]);
  });

  it('explains the kind of a whole plate number: new energy, 学, 使', async () => {
    const [nev] = await ok<Plate[]>(`/api/license-plate?keyword=${encodeURIComponent('粤BD12345')}`);
    expect(nev).toMatchObject({ prefix: '粤B', city: '深圳市', type: '新能源小型汽车（纯电动）' });
    expect((await ok<Plate[]>(`/api/license-plate?keyword=${encodeURIComponent('京A1234学')}`))[0]).toMatchObject({
      prefix: '京A',
      type: '教练汽车',
    });
    expect((await ok<Plate[]>(`/api/license-plate?keyword=${encodeURIComponent('使014578')}`))[0]).toMatchObject({
      type: '使馆汽车',
      prefix: '',
    });
  });

  it('bounds keyword to 20 characters, naming the parameter', async () => {
    await fails(`/api/license-plate?keyword=${'深'.repeat(21)}`, /参数 keyword/, /20/);
    await fails('/api/license-plate?keyword=a&keyword=b', /参数 keyword/);
  });

  it('sends Cache-Control and an ETag and answers If-None-Match with 304', async () => {
    await expectConditional(`/api/license-plate?keyword=${encodeURIComponent('粤B')}`);
  });
});

describe('OpenAPI', () => {
  it('documents the four endpoints under 生活服务 with distance and balance defined', async () => {
    const doc = (await get('/openapi.json')).json();
    for (const p of ['/api/almanac', '/api/solar-term', '/api/holiday', '/api/license-plate']) {
      expect(doc.paths[p]?.get?.tags, p).toEqual(['生活服务 Life services']);
    }
    const holiday = doc.paths['/api/holiday'].get.description as string;
    expect(holiday).toMatch(/`distance` = whole days from today/);
    expect(holiday).toMatch(/`balance` = days off gained beyond ordinary weekends/);
  });
});
