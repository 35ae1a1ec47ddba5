import { afterAll, describe, expect, it } from 'vitest';
import { getTestInstance, useTestApp, type TestInstance } from './helpers.js';

/** Every link-bearing public answer, and where its link sits. */
const LINKS: Array<[string, (data: Record<string, unknown>) => string]> = [
  ['/api/random-avatar?seed=a', (d) => String(d.url)],
  ['/api/random-image?seed=a', (d) => String(d.pngUrl)],
  ['/api/qrcode?text=hi', (d) => String(d.url)],
  ['/api/wallpaper?date=2026-01-01', (d) => String(d.url)],
  ['/api/random-user?seed=a&count=1', (d) => String(d.avatar)],
];

const get = async (t: TestInstance, url: string, host: string) => {
  const res = await t.app.inject({ url, headers: { host } });
  expect(res.statusCode, `${url} ${res.body.slice(0, 200)}`).toBe(200);
  const data = res.json().data as Record<string, unknown> | Array<Record<string, unknown>>;
  return Array.isArray(data) ? data[0] : data;
};

describe('public links never carry an arbitrary Host header', () => {
  const t = useTestApp('sqlite');

  it.each(LINKS)('%s: an untrusted host gets root-relative links', async (url, pick) => {
    const data = await get(t, url, 'evil.example');
    expect(JSON.stringify(data)).not.toContain('evil.example');
    expect(pick(data)).toMatch(/^\/api\//);
  });

  it.each(LINKS.slice(0, 2))(
    '%s: a trusted host (localhost by default) still gets absolute links',
    async (url, pick) => {
      expect(pick(await get(t, url, 'localhost:3000'))).toMatch(/^http:\/\/localhost:3000\/api\//);
    },
  );

  it('a Host that is not a host name at all is not trusted', async () => {
    for (const host of ['localhost@evil.example', 'localhost/evil', 'localhost:80:81']) {
      expect(String((await get(t, '/api/random-avatar?seed=a', host)).url)).toMatch(/^\/api\//);
    }
  });
});

describe('configured addresses', () => {
  let t: TestInstance;
  afterAll(() => t?.close());

  it('PUBLIC_BASE_URL wins over any Host; TRUSTED_HOSTS lists the hosts allowed otherwise', async () => {
    t = await getTestInstance('sqlite', { PUBLIC_BASE_URL: 'https://api.example.com/', TRUSTED_HOSTS: 'tianji.lan' });
    expect((await get(t, '/api/random-avatar?seed=a', 'evil.example')).url).toMatch(
      /^https:\/\/api\.example\.com\/api\//,
    );
    await t.close();
    t = await getTestInstance('sqlite', { TRUSTED_HOSTS: 'Tianji.LAN, [::1]' });
    expect((await get(t, '/api/random-avatar?seed=a', 'tianji.lan:8080')).url).toMatch(
      /^http:\/\/tianji\.lan:8080\/api\//,
    );
    expect((await get(t, '/api/random-avatar?seed=a', '[::1]:3000')).url).toMatch(/^http:\/\/\[::1\]:3000\/api\//);
    expect((await get(t, '/api/random-avatar?seed=a', 'localhost')).url).toMatch(/^\/api\//);
  });
});
