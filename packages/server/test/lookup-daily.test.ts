import { describe, expect, it } from 'vitest';
import { useTestApp } from './helpers.js';

describe('daily recommendation endpoints', () => {
  const t = useTestApp('sqlite');
  const get = async (url: string) => {
    const res = await t.app.inject(url);
    return { status: res.statusCode, body: res.json() };
  };

  it.each([
    ['/api/trivia', ['category', 'content']],
    ['/api/joke', ['content']],
    ['/api/tongue-twister', ['title', 'content']],
    ['/api/xiehouyu', ['riddle', 'answer']],
    ['/api/poem', ['title', 'author', 'dynasty', 'lines', 'featured']],
  ])('%s gives everyone the same item for a day, another with random=true', async (path, fields) => {
    const a = await get(`${path}?date=2026-11-21`);
    expect(a.status).toBe(200);
    expect(a.body.data.date).toBe('2026-11-21');
    for (const f of fields) expect(a.body.data[f]).toBeTruthy();
    const b = await get(`${path}?date=2026-11-21`);
    expect(b.body.data.id).toBe(a.body.data.id);
    const days = new Set<string>();
    for (let d = 1; d <= 10; d++)
      days.add((await get(`${path}?date=2026-11-${String(d).padStart(2, '0')}`)).body.data.id);
    expect(days.size).toBeGreaterThan(5);
    const bad = await get(`${path}?date=2026-02-30`);
    expect(bad.status).toBe(500);
    expect(bad.body.msg).toContain('date');
  });

  it('ships libraries of at least 200 entries each, and thousands of poems', () => {
    for (const lib of ['trivia', 'jokes', 'tongue-twisters', 'xiehouyu'] as const)
      expect(t.app.content.items(lib).length).toBeGreaterThanOrEqual(200);
    expect(t.app.content.items('poems').length).toBeGreaterThanOrEqual(5000);
    expect(t.app.content.items('mood-quotes').length).toBeGreaterThanOrEqual(750);
  });

  it('poem-game plays 飞花令: every verse contains the keyword and names its poem', async () => {
    const r = await get(`/api/poem-game?keyword=${encodeURIComponent('月')}&count=8`);
    expect(r.status).toBe(200);
    expect(r.body.data.mode).toBe('feihua');
    expect(r.body.data.items).toHaveLength(8);
    expect(r.body.data.total).toBeGreaterThan(100);
    for (const v of r.body.data.items) {
      expect(v.line).toContain('月');
      expect(v.title && v.author && v.dynasty).toBeTruthy();
    }
  });

  it('poem-game draws distinct verses, each named by the poem it comes from, however often it is asked', async () => {
    const poems = new Map(t.app.content.items('poems').map((p) => [p.id, p]));
    // Seeded, so that the run is the same each time; 200 draws of 20 met the same verse twice in two poems before.
    for (let i = 0; i < 200; i++) {
      const { items } = (await get(`/api/poem-game?keyword=${encodeURIComponent('月')}&count=20&seed=s${i}`)).body.data;
      expect(new Set(items.map((v: { line: string }) => v.line)).size).toBe(items.length);
      for (const v of items) {
        const poem = poems.get(v.poemId)!;
        expect(poem, v.poemId).toBeDefined();
        expect({ title: v.title, author: v.author, dynasty: v.dynasty }).toEqual({
          title: poem.title,
          author: poem.author,
          dynasty: poem.dynasty,
        });
        expect(poem.lines.join('')).toContain(v.line);
      }
    }
  });

  it('poem-game plays 接龙: the answer starts with the last character of the given verse', async () => {
    const r = await get(`/api/poem-game?after=${encodeURIComponent('床前明月光')}&count=3`);
    expect(r.status).toBe(200);
    expect(r.body.data.keyword).toBe('光');
    for (const v of r.body.data.items) expect(v.line.startsWith('光')).toBe(true);
  });

  it('poem-game says so when nothing matches or the query is ambiguous', async () => {
    const none = await get(`/api/poem-game?keyword=${encodeURIComponent('龘')}`);
    expect(none.status).toBe(500);
    expect(none.body.msg).toContain('龘');
    expect((await get('/api/poem-game?keyword=abc')).status).toBe(500);
  });

  it('poem-game refuses keyword with after, naming both, and plays 飞花令 on a classic character given neither', async () => {
    const both = await get(
      `/api/poem-game?keyword=${encodeURIComponent('月')}&after=${encodeURIComponent('床前明月光')}`,
    );
    expect(both.status).toBe(500);
    expect(both.body.msg).toMatch(/^参数 keyword 无效：不能与 after（收到 "床前明月光"）同时给出.*收到 "月"$/);
    const neither = await get('/api/poem-game?seed=demo');
    expect(neither.status).toBe(200);
    expect(neither.body.data.mode).toBe('feihua');
    expect('花月春风雪山水云雨酒夜秋').toContain(neither.body.data.keyword);
    for (const v of neither.body.data.items) expect(v.line).toContain(neither.body.data.keyword);
    expect((await get('/api/poem-game?seed=demo')).body.data).toEqual(neither.body.data);
  });

  it('mood-quote keeps to the style and addresses the name in flattery', async () => {
    const r = await get(`/api/mood-quote?style=flattery&name=${encodeURIComponent('小明')}`);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ style: 'flattery', styleName: '彩虹屁' });
    expect(r.body.data.content).toContain('小明');
    expect(r.body.data.content).not.toContain('{name}');
    // 70 templates, 40 draws: templates repeat, and each answer still carries its own request's name.
    for (let i = 0; i < 40; i++) {
      const name = i % 2 ? '小红' : '小明';
      const named = await get(`/api/mood-quote?style=flattery&name=${encodeURIComponent(name)}`);
      expect(named.body.data.content, named.body.data.id).toContain(name);
      expect(named.body.data.content).not.toContain(i % 2 ? '小明' : '小红');
    }
    for (let i = 0; i < 20; i++)
      expect((await get('/api/mood-quote?style=flattery')).body.data.content).not.toMatch(/小明|小红|\{name\}/);
    for (const style of ['diary', 'toxic', 'love', 'caption'])
      expect((await get(`/api/mood-quote?style=${style}`)).body.data.style).toBe(style);
    const bad = await get('/api/mood-quote?style=sad');
    expect(bad.status).toBe(500);
    expect(bad.body.msg).toContain('style');
  });
});

describe('wallpaper of the day', () => {
  const t = useTestApp('sqlite');

  it('describes a generated artwork per date, with PNG and SVG served by this service', async () => {
    // 小雪 2026 falls on 11-22: the 21st is still 立冬, the 25th 小雪.
    expect((await t.app.inject('/api/wallpaper?date=2026-11-21')).json().data.title).toContain('立冬');
    const res = await t.app.inject({ url: '/api/wallpaper?date=2026-11-25', headers: { host: 'localhost:4000' } });
    expect(res.statusCode).toBe(200);
    const d = res.json().data;
    expect(d).toMatchObject({ date: '2026-11-25', width: 1920, height: 1080, source: 'generated' });
    expect(d.title).toContain('小雪');
    expect(d.url.startsWith('http://localhost:4000/api/wallpaper/image?')).toBe(true);
    const png = await t.app.inject(d.url.replace('http://localhost:4000', ''));
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.rawPayload.subarray(0, 4).toString('hex')).toBe('89504e47');
    expect(png.rawPayload.readUInt32BE(16)).toBe(1920);
    const svg = await t.app.inject(d.svgUrl.replace('http://localhost:4000', ''));
    expect(svg.body.startsWith('<svg')).toBe(true);
    const phone = (await t.app.inject('/api/wallpaper?date=2026-11-21&device=phone')).json().data;
    expect([phone.width, phone.height]).toEqual([1080, 1920]);
  });

  it('prefers an operator’s wallpaper for that date', async () => {
    const { login, bearer } = await import('./helpers.js');
    const token = (await login(t.app)).accessToken;
    const item = {
      date: '2026-12-25',
      title: '圣诞',
      description: '运营上传',
      url: 'https://cdn.example.com/xmas.jpg',
      width: 3840,
      height: 2160,
      copyright: '© 运营',
    };
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/content/wallpapers',
      payload: item,
      headers: bearer(token),
    });
    expect(created.statusCode).toBe(201);
    const d = (await t.app.inject('/api/wallpaper?date=2026-12-25')).json().data;
    expect(d).toMatchObject({ title: '圣诞', url: item.url, source: 'library', width: 3840 });
  });
});
