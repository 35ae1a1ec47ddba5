import { afterAll, beforeAll, expect, it } from 'vitest';
import type { HTTPMethods, RouteOptions } from 'fastify';
import { areaOfUrl } from '../src/http/areas.js';
import { PERMISSION_POINTS } from '../src/admin/permissions/points.js';
import { describeEachDb, getTestInstance, login, type TestInstance, useTestApp } from './helpers.js';
import { expectUnauthorized, insertUser, signIn } from './auth-fixtures.js';

const FORBIDDEN_BODY = '{"code":"FORBIDDEN","message":"无权限"}';
// login/totp is public too: its mfaToken (signed, 5 minutes) stands in for the bearer token. A passkey sign-in's
// second call carries its ceremony token (signed, 5 minutes, spent once) and the authenticator's signature; the device
// flow's token call carries the device code (stored hashed, 10 minutes, once), which an approval by a signed-in user
// has to turn into a session (issue 53).
/** The only admin routes anyone may call without a token. Adding one is a security decision: extend this list on purpose. */
const PUBLIC_ADMIN_ROUTES = [
  'POST /api/auth/login',
  'POST /api/auth/login/totp',
  'POST /api/auth/refresh',
  'POST /api/auth/passkeys/login/options',
  'POST /api/auth/passkeys/login',
  'POST /api/auth/device/code',
  'POST /api/auth/device/token',
];
const POINT_NAMES = new Set<string>(PERMISSION_POINTS.map((p) => p.value));

interface Walked {
  method: string;
  url: string;
  config: { area?: string; auth?: unknown };
  hidden: boolean;
}

/** A declaration the guard understands: 'public', 'authenticated', or known bits (at least one) with an optional menu. */
function isDeclaration(auth: unknown): boolean {
  if (auth === 'public' || auth === 'authenticated') return true;
  if (!auth || typeof auth !== 'object') return false;
  const { menu, bits, ...rest } = auth as { menu?: unknown; bits?: unknown };
  return (
    Object.keys(rest).length === 0 &&
    (menu === undefined || (typeof menu === 'string' && menu.length > 0)) &&
    Array.isArray(bits) &&
    bits.length > 0 &&
    bits.every((b) => POINT_NAMES.has(b))
  );
}

/** A concrete URL for a route pattern: parameters become a well-formed id nobody has. */
const concrete = (url: string) => url.replace(/:[^/]+/g, '00000000-0000-4000-8000-000000000000').replace(/\*$/, 'x');

describeEachDb('admin route declarations', (dialect) => {
  let t: TestInstance;
  const collected: RouteOptions[] = [];
  let routes: Walked[];
  let admin: Walked[];

  beforeAll(async () => {
    // Every route the app registers passes through this hook, wherever it is declared — routes added later included.
    t = await getTestInstance(dialect, {}, { onRoute: (r) => void collected.push(r) });
    routes = collected.flatMap((r) =>
      [r.method as HTTPMethods | HTTPMethods[]].flat().map((method) => ({
        method,
        url: r.url,
        config: (r.config ?? {}) as Walked['config'],
        hidden: Boolean((r.schema as { hide?: boolean } | undefined)?.hide),
      })),
    );
    admin = routes.filter((r) => areaOfUrl(r.url) === 'admin' || r.config.area === 'admin');
  });
  afterAll(() => t.close());

  it('sees the whole route table', () => {
    expect(admin.length).toBeGreaterThan(5);
    expect(admin.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining(['GET /api/auth/me', 'HEAD /api/auth/me', 'GET /api/permissions']),
    );
  });

  it('every admin route sits inside the admin API and declares a permission or the public marker', () => {
    const offenders = admin
      .filter((r) => r.config.area !== 'admin' || !isDeclaration(r.config.auth))
      .map((r) => `${r.method} ${r.url} ${JSON.stringify(r.config.auth)}`);
    expect(offenders).toEqual([]);
  });

  it('every menu a route declares exists', async () => {
    const menus = new Set((await t.db.kysely.selectFrom('menus').select('code').execute()).map((m) => m.code));
    const unknown = admin
      .map((r) => (r.config.auth as { menu?: string }).menu)
      .filter((m): m is string => m !== undefined && !menus.has(m));
    expect(unknown).toEqual([]);
  });

  it('only the sign-in routes (password, TOTP step, passkey, device) and refresh are public', () => {
    const open = admin.filter((r) => r.config.auth === 'public').map((r) => `${r.method} ${r.url}`);
    expect(open.sort()).toEqual([...PUBLIC_ADMIN_ROUTES].sort());
  });

  it('every non-public admin route refuses a request without a token', async () => {
    const leaks: string[] = [];
    for (const r of admin.filter((x) => x.config.auth !== 'public' && x.method !== 'OPTIONS')) {
      const res = await t.app.inject({ method: r.method as HTTPMethods, url: concrete(r.url) });
      if (res.statusCode !== 401) leaks.push(`${r.method} ${r.url} → ${res.statusCode}`);
    }
    expect(leaks).toEqual([]);
  });

  it('every route with permission bits refuses a signed-in user without roles with exactly 403 无权限', async () => {
    await insertUser(t.db, 'nobody-special');
    const { accessToken } = await signIn(t.app, 'nobody-special');
    const wrong: string[] = [];
    for (const r of admin.filter((x) => typeof x.config.auth === 'object' && x.method !== 'OPTIONS')) {
      const res = await t.app.inject({
        method: r.method as HTTPMethods,
        url: concrete(r.url),
        headers: { authorization: `Bearer ${accessToken}` },
      });
      if (res.statusCode !== 403 || (r.method !== 'HEAD' && res.body !== FORBIDDEN_BODY))
        wrong.push(`${r.method} ${r.url} → ${res.statusCode} ${res.body.slice(0, 80)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('the OpenAPI document carries each documented admin route’s declaration as x-permission', async () => {
    const doc = (await t.app.inject('/openapi.json')).json();
    expect(doc.paths['/api/auth/me'].get['x-permission']).toBe('authenticated');
    expect(doc.paths['/api/auth/me'].get.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths['/api/auth/login'].post['x-permission']).toBe('public');
    expect(doc.paths['/api/auth/login'].post.security).toBeUndefined();
    const mismatched: string[] = [];
    for (const r of admin.filter((x) => !x.hidden && x.method !== 'HEAD' && x.method !== 'OPTIONS')) {
      const path = r.url.replace(/:([^/]+)/g, '{$1}').replace(/(.)\/$/, '$1');
      const op = doc.paths[path]?.[r.method.toLowerCase()];
      if (!op || JSON.stringify(op['x-permission']) !== JSON.stringify(r.config.auth))
        mismatched.push(`${r.method} ${path}`);
    }
    expect(mismatched).toEqual([]);
  });
});

describeEachDb('permission points and identity', (dialect) => {
  const t = useTestApp(dialect);

  it('GET /api/permissions lists the ten points with value, label, bits and icon', async () => {
    const { accessToken } = await login(t.app);
    const res = await t.app.inject({ url: '/api/permissions', headers: { authorization: `Bearer ${accessToken}` } });
    expect(res.statusCode).toBe(200);
    const points = res.json().data as Array<Record<string, unknown>>;
    expect(points.map((p) => [p.value, p.bits])).toEqual([
      ['SEARCH', 1],
      ['ADD', 2],
      ['EDIT', 4],
      ['DELETE', 8],
      ['BATCH_DELETE', 16],
      ['ADD_CHILD', 32],
      ['RESET', 64],
      ['RESET_PASSWORD', 128],
      ['GRANT', 256],
      ['EXPORT', 512],
    ]);
    for (const p of points) {
      expect(Object.keys(p).sort()).toEqual(['bits', 'icon', 'label', 'value']);
      expect(p.label).toBe(String(p.value).toLowerCase().replace(/_/g, '-'));
      expect(p.icon).toMatch(/^[a-z0-9-]+$/);
    }
    expect(points.slice(0, 4).map((p) => p.icon)).toEqual(['search', 'plus', 'pencil-line', 'trash-2']);
  });

  it('GET /api/permissions needs a token', async () => {
    expectUnauthorized(await t.app.inject({ url: '/api/permissions' }), /missing/);
  });

  it('GET /api/auth/me returns identity, roles, aggregate mask and the menu tree with exact masks', async () => {
    const { accessToken } = await login(t.app);
    const res = await t.app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${accessToken}` } });
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(Object.keys(data)).toEqual(expect.arrayContaining(['id', 'username', 'roles', 'permissions', 'menus']));
    const node = data.menus[0];
    expect(Object.keys(node)).toEqual(
      expect.arrayContaining(['id', 'parentId', 'code', 'name', 'path', 'icon', 'sort', 'permissions', 'children']),
    );
    expect(node.parentId).toBeNull();
    expect(node.children[0].parentId).toBe(node.id);
    expect(res.body).not.toMatch(/"permissions":(-1|")/);
    expect(res.body.match(/"permissions":9223372036854775807/g)!.length).toBeGreaterThan(2);
  });

  it('shows a user without grants no menus and the mask 0', async () => {
    await insertUser(t.db, 'plain');
    const { accessToken } = await signIn(t.app, 'plain');
    const res = await t.app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${accessToken}` } });
    expect(res.json().data).toMatchObject({ username: 'plain', roles: [], permissions: 0, menus: [] });
  });
});

describeEachDb('admin API CORS', (dialect) => {
  const GOOD = 'https://admin.example.com';
  const EVIL = 'https://evil.example';
  let t: TestInstance;
  let closed: TestInstance;
  let token: string;

  beforeAll(async () => {
    [t, closed] = await Promise.all([
      getTestInstance(dialect, { CORS_ORIGINS: `${GOOD}, https://ops.example.com` }),
      getTestInstance(dialect),
    ]);
    token = (await login(t.app)).accessToken;
  });
  afterAll(async () => {
    await Promise.all([t?.close(), closed?.close()]);
  });

  const get = (inst: TestInstance, url: string, origin: string) =>
    inst.app.inject({ url, headers: { origin, authorization: `Bearer ${token}` } });
  const preflight = (inst: TestInstance, url: string, origin: string) =>
    inst.app.inject({
      method: 'OPTIONS',
      url,
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });

  it('lets a configured origin read admin responses', async () => {
    const res = await get(t, '/api/auth/me', GOOD);
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(GOOD);
    expect(String(res.headers.vary)).toMatch(/Origin/i);
    const pre = await preflight(t, '/api/auth/login', GOOD);
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(GOOD);
    expect(String(pre.headers['access-control-allow-headers'])).toMatch(/authorization/i);
  });

  it('gives any other origin no access-control-allow-origin on the admin API, however the path is spelled', async () => {
    for (const url of ['/api/auth/me', '/api/%61uth/me', '/api/auth/me/', '/api/users']) {
      expect((await get(t, url, EVIL)).headers['access-control-allow-origin'], url).toBeUndefined();
      expect((await preflight(t, url, EVIL)).headers['access-control-allow-origin'], url).toBeUndefined();
    }
  });

  it('allows no origin at all on the admin API when CORS_ORIGINS is empty', async () => {
    expect((await get(closed, '/api/auth/me', GOOD)).headers['access-control-allow-origin']).toBeUndefined();
    expect((await preflight(closed, '/api/auth/login', GOOD)).headers['access-control-allow-origin']).toBeUndefined();
  });

  it('keeps the public API open to every origin', async () => {
    expect(
      (await t.app.inject({ url: '/api/no-such-endpoint', headers: { origin: EVIL } })).headers[
        'access-control-allow-origin'
      ],
    ).toBe('*');
  });
});
