import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import {
  ADMIN,
  REDIS_URL,
  bearer,
  describeEachDb,
  getTestInstance,
  login,
  testConfig,
  type TestInstance,
} from './helpers.js';

describeEachDb('content library', (dialect) => {
  let t: TestInstance;
  let token: string;
  beforeAll(async () => {
    t = await getTestInstance(dialect);
    token = (await login(t.app)).accessToken;
  });
  afterAll(() => t.close());

  const api = (method: string, url: string, payload?: unknown, tok = token) =>
    t.app.inject({ method: method as 'GET', url, payload: payload as object, headers: bearer(tok) });

  async function emptyLibrary(lib: string) {
    const all = await api('GET', `/api/admin/content/${lib}/export?format=json`);
    const ids = (JSON.parse(all.body) as Array<{ id: string }>).map((i) => i.id);
    for (let i = 0; i < ids.length; i += 500)
      await api('POST', `/api/admin/content/${lib}/batch-delete`, { ids: ids.slice(i, i + 500) });
  }

  it('a joke added in the admin API is what the public endpoint serves right after', async () => {
    await emptyLibrary('jokes');
    const empty = await t.app.inject('/api/joke');
    expect(empty.statusCode).toBe(500);
    expect(empty.json().msg).toContain('笑话库为空');

    const created = await api('POST', '/api/admin/content/jokes', { content: '程序员的笑话：这个 bug 是特性。' });
    expect(created.statusCode).toBe(201);
    const pub = await t.app.inject('/api/joke?random=true');
    expect(pub.statusCode).toBe(200);
    expect(pub.json().data).toMatchObject({ content: '程序员的笑话：这个 bug 是特性。', id: created.json().data.id });

    const edited = await api('PUT', `/api/admin/content/jokes/${created.json().data.id}`, { content: '改过的笑话' });
    expect(edited.statusCode).toBe(200);
    expect((await t.app.inject('/api/joke')).json().data.content).toBe('改过的笑话');
    // The only item on two days, twice each: every answer carries the day asked for (answers are kept per item and day).
    for (const date of ['2026-01-01', '2026-01-02', '2026-01-01', '2026-01-02'])
      expect((await t.app.inject(`/api/joke?date=${date}`)).json().data).toMatchObject({ content: '改过的笑话', date });
  });

  it('a sentence whose author is left empty or null is added, its author stored as null', async () => {
    for (const [n, fromWho] of [
      [1, ''],
      [2, null],
    ] as const) {
      const created = await api('POST', '/api/admin/content/hitokoto', {
        type: 'a',
        content: `作者不详的一句话 ${n}`,
        from: '快速添加',
        from_who: fromWho,
        creator: 'operator',
        commit_from: 'web',
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().data.from_who).toBeNull();
    }
  });

  it('import then export round-trips JSON and CSV, Chinese text and BOM intact', async () => {
    await emptyLibrary('xiehouyu');
    const items = [
      { riddle: '外甥打灯笼', answer: '照舅（旧）' },
      { riddle: '孔夫子搬家', answer: '净是书（输）' },
    ];
    const imp = await api('POST', '/api/admin/content/xiehouyu/import', {
      format: 'json',
      content: JSON.stringify(items),
    });
    expect(imp.json()).toEqual({ data: { imported: 2 } });

    const csv = await api('GET', '/api/admin/content/xiehouyu/export?format=csv');
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.startsWith('\uFEFF')).toBe(true);
    expect(csv.body).toContain('外甥打灯笼');

    await emptyLibrary('xiehouyu');
    const back = await api('POST', '/api/admin/content/xiehouyu/import', { format: 'csv', content: csv.body });
    expect(back.json()).toEqual({ data: { imported: 2 } });
    const json = JSON.parse((await api('GET', '/api/admin/content/xiehouyu/export?format=json')).body) as Array<{
      riddle: string;
      answer: string;
    }>;
    expect(
      json.map(({ riddle, answer }) => ({ riddle, answer })).sort((a, b) => a.riddle.localeCompare(b.riddle)),
    ).toEqual([...items].sort((a, b) => a.riddle.localeCompare(b.riddle)));
  });

  it('a CSV export cannot run formulas in a spreadsheet, yet imports back unchanged', async () => {
    await emptyLibrary('jokes');
    await api('POST', '/api/admin/content/jokes', { content: '=HYPERLINK("http://evil")' });
    const csv = (await api('GET', '/api/admin/content/jokes/export?format=csv')).body;
    expect(csv).toContain(`"'=HYPERLINK(""http://evil"")"`);
    await emptyLibrary('jokes');
    expect((await api('POST', '/api/admin/content/jokes/import', { format: 'csv', content: csv })).json()).toEqual({
      data: { imported: 1 },
    });
    expect((await t.app.inject('/api/joke')).json().data.content).toBe('=HYPERLINK("http://evil")');
  });

  it('a malformed import reports every bad row and imports nothing', async () => {
    const before = (await api('GET', '/api/admin/content/trivia?pageSize=1')).json().data.total;
    const res = await api('POST', '/api/admin/content/trivia/import', {
      format: 'json',
      content: JSON.stringify([{ category: '自然', content: '好的一条' }, { category: '自然' }, { content: 5 }]),
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.errors.map((e: { row: number }) => e.row)).toEqual(expect.arrayContaining([2, 3]));
    expect(body.errors.some((e: { field: string }) => e.field === 'content')).toBe(true);
    expect((await api('GET', '/api/admin/content/trivia?pageSize=1')).json().data.total).toBe(before);

    const broken = await api('POST', '/api/admin/content/trivia/import', {
      format: 'csv',
      content: 'category,content\n"unterminated',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().message).toContain('not valid CSV');
  });

  it('an import of poems that are empty, bracket-marked, mislabelled or duplicated is refused row by row', async () => {
    const before = (await api('GET', '/api/admin/content/poems?pageSize=1')).json().data.total;
    const good = {
      title: '新诗',
      author: '无名氏',
      dynasty: '唐',
      lines: ['一行新的诗句在这里，', '再来一行收个尾。'],
    };
    const res = await api('POST', '/api/admin/content/poems/import', {
      format: 'json',
      content: JSON.stringify([
        good,
        { title: '空', author: '杨□', dynasty: '唐', lines: ['。'] },
        { ...good, title: '重复', lines: ['一行新的诗句在这里', '再来一行收个尾'] },
        { title: '校勘', author: '朱庆余', dynasty: '唐', lines: ['[妆]罢低声问夫壻，画眉深浅入时无。'] },
        { title: '破阵子', author: '李煜', dynasty: '唐', lines: ['四十年来家国，三千里地山河。'] },
      ]),
    });
    expect(res.statusCode).toBe(400);
    const rows = (res.json().errors as Array<{ row: number; field: string }>).map((e) => `${e.row} ${e.field}`);
    expect(rows).toEqual(expect.arrayContaining(['2 author', '2 lines/0', '3 lines', '4 lines/0', '5 dynasty']));
    expect(rows.some((r) => r.startsWith('1 '))).toBe(false);
    expect((await api('GET', '/api/admin/content/poems?pageSize=1')).json().data.total).toBe(before);

    const created = await api('POST', '/api/admin/content/poems', {
      ...good,
      title: '校勘',
      lines: ['[妆]罢低声问夫壻，画眉深浅入时无。'],
    });
    expect(created.statusCode).toBe(400);
    expect(created.json().message).toMatch(/lines\/0: 含校勘/);
  });

  it('a new year of holidays is one JSON upload', async () => {
    const year = { year: 2199, holidays: [{ name: '元旦', start: '2199-01-01', end: '2199-01-01', work: [] }] };
    const res = await api('POST', '/api/admin/content/holidays', year);
    expect(res.statusCode).toBe(201);
    const dup = await api('POST', '/api/admin/content/holidays', year);
    expect(dup.statusCode).toBe(409);
  });

  it('guards every content route with its menu and bit', async () => {
    // A role with SEARCH only on content:jokes: can list jokes, cannot add, cannot list trivia.
    const menus = (await api('GET', '/api/auth/me')).json().data.menus as Array<{
      code: string;
      children: Array<{ id: string; code: string }>;
    }>;
    const jokesMenu = menus.find((m) => m.code === 'content')!.children.find((c) => c.code === 'content:jokes')!;
    const role = await api('POST', '/api/roles', { code: 'joke_reader', name: 'Joke reader' });
    if (role.statusCode !== 201 && role.statusCode !== 200)
      return expect.soft(role.statusCode, 'roles API not available yet').toBe(201);
    const roleId = role.json().data.id;
    await api('PUT', `/api/roles/${roleId}/menus`, { grants: [{ menuId: jokesMenu.id, bits: 1 }] });
    await api('POST', '/api/users', { username: 'reader1', password: 'reader-password-1', roleIds: [roleId] });
    // The reader has already replaced the operator's password (must-change-password.test.ts covers that step).
    await t.db.kysely.updateTable('users').set({ must_change_password: 0 }).where('username', '=', 'reader1').execute();
    const reader = (await login(t.app, 'reader1', 'reader-password-1')).accessToken;
    expect((await api('GET', '/api/admin/content/jokes', undefined, reader)).statusCode).toBe(200);
    const add = await api('POST', '/api/admin/content/jokes', { content: 'x' }, reader);
    expect(add.statusCode).toBe(403);
    expect(add.json()).toEqual({ code: 'FORBIDDEN', message: '无权限' });
    expect((await api('GET', '/api/admin/content/trivia', undefined, reader)).statusCode).toBe(403);
    expect((await api('GET', '/api/admin/content/jokes/export', undefined, reader)).statusCode).toBe(403);
    void ADMIN;
  });
});

describeEachDb('holiday schedules from the content library', (dialect) => {
  let t: TestInstance;
  beforeAll(async () => {
    t = await getTestInstance(dialect);
  });
  afterAll(() => t.close());

  it('serves a newly published year at once, and an unknown year is an error until then', async () => {
    const before = await t.app.inject('/api/holiday?year=2027');
    expect(before.statusCode).toBe(500);
    expect(before.json().msg).toContain('2027');
    const token = (await login(t.app)).accessToken;
    const year = {
      year: 2027,
      holidays: [
        { name: '元旦', start: '2027-01-01', end: '2027-01-03', work: [] },
        { name: '春节', start: '2027-02-05', end: '2027-02-13', work: ['2027-02-14'] },
      ],
    };
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/content/holidays',
      payload: year,
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(201);
    const after = await t.app.inject('/api/holiday?year=2027');
    expect(after.statusCode).toBe(200);
    const spring = after.json().data.find((h: { name: string }) => h.name === '春节');
    expect(spring).toMatchObject({ start: '2027-02-05', end: '2027-02-13', length: 9, work: ['2027-02-14'] });
  });
});

describe.skipIf(!REDIS_URL)('content changes across instances (Redis)', () => {
  it('a joke added on one instance is served by another at once', async () => {
    const env = { REDIS_URL: REDIS_URL! };
    const a = await getTestInstance('sqlite', env);
    // A second instance on the same database, as a second process behind a load balancer would be.
    const b = await buildApp({ config: testConfig(env), db: a.db, logger: false });
    try {
      const token = (await login(a.app)).accessToken;
      const all = JSON.parse(
        (await a.app.inject({ url: '/api/admin/content/jokes/export?format=json', headers: bearer(token) })).body,
      ) as Array<{ id: string }>;
      await a.app.inject({
        method: 'POST',
        url: '/api/admin/content/jokes/batch-delete',
        payload: { ids: all.map((i) => i.id) },
        headers: bearer(token),
      });
      await a.app.inject({
        method: 'POST',
        url: '/api/admin/content/jokes',
        payload: { content: '只有一个笑话' },
        headers: bearer(token),
      });
      await expect
        .poll(async () => (await b.inject('/api/joke')).json().data?.content, { timeout: 5000 })
        .toBe('只有一个笑话');
    } finally {
      await b.close();
      await a.close();
    }
  });
});
