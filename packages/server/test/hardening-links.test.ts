import { beforeAll, describe, expect, it } from 'vitest';
import { isSafeLink } from '../src/catalogue/safe-link.js';
import { ContentRepository } from '../src/content/repository.js';
import { libraryByName } from '../src/catalogue/content-libraries.js';
import { describeEachDb, useTestApp } from './helpers.js';
import { adminCall, type Call } from './admin-fixtures.js';

const BAD = [
  'javascript:alert(document.cookie)',
  'JavaScript:alert(1)',
  ' javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:x',
  '//evil.example/x.png',
  '/\\evil.example',
  'https://',
  'http://a b',
  'ftp://host/x',
];
const GOOD = ['https://img.example.com/a.png', 'http://10.0.0.2:8080/x?y=1#z', '/api/wallpaper/image?seed=1', '/'];

describe('safe links', () => {
  it.each(GOOD)('%s is accepted', (url) => expect(isSafeLink(url)).toBe(true));
  it.each(BAD)('%s is refused', (url) => expect(isSafeLink(url)).toBe(false));
});

const wallpaper = (url: string, date = '2026-03-01') => ({
  date,
  title: '测试',
  description: '',
  url,
  width: 1920,
  height: 1080,
  copyright: '',
});

describeEachDb('links in content accept only http(s) or a local path', (dialect) => {
  const t = useTestApp(dialect);
  let admin: Call;
  beforeAll(async () => {
    admin = await adminCall(t.app);
  });

  it.each(BAD.slice(0, 5))('create with %j is a 400 naming url', async (url) => {
    const res = await admin('POST', '/api/admin/content/wallpapers', wallpaper(url));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('参数 url 无效');
  });

  it('edit to a javascript: URL is a 400; the item keeps its link', async () => {
    const created = await admin(
      'POST',
      '/api/admin/content/wallpapers',
      wallpaper('https://img.example.com/ok.png', '2026-03-02'),
    );
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id as string;
    const res = await admin(
      'PUT',
      `/api/admin/content/wallpapers/${id}`,
      wallpaper('javascript:alert(1)', '2026-03-02'),
    );
    expect(res.statusCode).toBe(400);
    expect((await admin('GET', `/api/admin/content/wallpapers/${id}`)).json().data.url).toBe(
      'https://img.example.com/ok.png',
    );
  });

  it.each(['json', 'csv'] as const)(
    'a %s import holding a javascript: URL is refused with the row and field',
    async (format) => {
      const rows = [
        wallpaper('https://img.example.com/1.png', '2026-04-01'),
        wallpaper('javascript:alert(1)', '2026-04-02'),
      ];
      const content =
        format === 'json'
          ? JSON.stringify(rows)
          : [
              'date,title,description,url,width,height,copyright',
              ...rows.map((r) => `${r.date},${r.title},,${r.url},${r.width},${r.height},`),
            ].join('\n');
      const res = await admin('POST', '/api/admin/content/wallpapers/import', { format, content });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual([expect.objectContaining({ row: 2, field: 'url' })]);
    },
  );

  it('a javascript: link stored before the check is not served by the public API', async () => {
    const lib = libraryByName.get('wallpapers')!;
    await new ContentRepository(t.db.kysely).insertMany(lib, [wallpaper('javascript:alert(1)', '2026-05-01')]);
    await t.app.content.changed('wallpapers');
    const res = await t.app.inject('/api/wallpaper?date=2026-05-01');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.source).toBe('generated');
    expect(res.body).not.toContain('javascript:');
  });
});
