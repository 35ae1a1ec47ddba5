import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import adminApp from '../src/web/admin-app.js';

async function serve(root: string) {
  const app = Fastify({ logger: false, routerOptions: { ignoreTrailingSlash: true } });
  await app.register(adminApp, { root });
  return app;
}

describe('the admin web app at /admin', () => {
  it('when the app is not built, /admin says how to build it', async () => {
    const app = await serve(fs.mkdtempSync(path.join(os.tmpdir(), 'tianji-nodist-')));
    const res = await app.inject('/admin/system/users');
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('npm run build');
    await app.close();
  });

  it('serves the built app: / redirects, any page URL gets index.html, hashed assets are cached for good', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tianji-dist-'));
    fs.mkdirSync(path.join(root, 'assets'));
    fs.writeFileSync(
      path.join(root, 'index.html'),
      '<!doctype html><title>admin</title><script type="module" src="/admin/assets/app-1.js"></script>',
    );
    fs.writeFileSync(path.join(root, 'assets/app-1.js'), 'console.log(1)');
    const app = await serve(root);

    const home = await app.inject('/');
    expect(home.statusCode).toBe(302);
    expect(home.headers.location).toBe('/admin/');
    for (const url of ['/admin', '/admin/', '/admin/system/users', '/admin/content/holidays?page=2']) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<title>admin</title>');
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
    const asset = await app.inject('/admin/assets/app-1.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await app.inject('/admin/assets/gone-2.js')).statusCode).toBe(404);
    await app.close();
  });
});
