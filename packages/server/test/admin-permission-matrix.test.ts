import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { PERMISSION, type PermissionName } from '../src/admin/permissions/points.js';
import { describeEachDb, useTestApp, login } from './helpers.js';
import {
  adminCall,
  as,
  createRole,
  createUser,
  FORBIDDEN_BODY,
  menuIds,
  PASSWORD,
  type Call,
} from './admin-fixtures.js';

type Request = { url: string; payload?: unknown };
type Prepare = (admin: Call, app: FastifyInstance) => Promise<Request>;

const fresh = () => `p${randomBytes(5).toString('hex')}`;
const newUser = (admin: Call) => createUser(admin, fresh());
const newRole = (admin: Call) => createRole(admin, fresh());
/** A live session of a fresh user. */
const newSession = async (admin: Call, app: FastifyInstance) => {
  const username = fresh();
  const id = await createUser(admin, username);
  await login(app, username, PASSWORD);
  return (await admin('GET', `/api/sessions?userId=${id}`)).json().data.items[0].id as string;
};
const newMenu = async (admin: Call) =>
  (await admin('POST', '/api/menus', { code: fresh(), name: '探针菜单' })).json().data.id as string;

/**
 * Every guarded route of users, roles, menus and the audit log, with a request that succeeds when allowed.
 * Keys are the OpenAPI operations; the first test fails when a route exists without an entry here.
 */
const ROUTES: Record<string, Prepare> = {
  'GET /api/users': async () => ({ url: '/api/users' }),
  'POST /api/users': async () => ({ url: '/api/users', payload: { username: fresh(), password: PASSWORD } }),
  'GET /api/users/export': async () => ({ url: '/api/users/export' }),
  'GET /api/users/{id}': async (a) => ({ url: `/api/users/${await newUser(a)}` }),
  'PATCH /api/users/{id}': async (a) => ({ url: `/api/users/${await newUser(a)}`, payload: { nickname: '改' } }),
  'DELETE /api/users/{id}': async (a) => ({ url: `/api/users/${await newUser(a)}` }),
  'POST /api/users/batch-delete': async (a) => ({
    url: '/api/users/batch-delete',
    payload: { ids: [await newUser(a)] },
  }),
  'POST /api/users/{id}/reset-password': async (a) => ({
    url: `/api/users/${await newUser(a)}/reset-password`,
    payload: { password: 'another-password' },
  }),
  'POST /api/users/{id}/unlock': async (a) => ({ url: `/api/users/${await newUser(a)}/unlock` }),
  'POST /api/users/{id}/reset-totp': async (a) => {
    const id = await newUser(a);
    // As if the user had enrolled (totp.test.ts covers enrolment): only a user with TOTP has one to reset.
    await a.app.db.kysely
      .updateTable('users')
      .set({ totp_secret: 'JBSWY3DPEHPK3PXP', totp_enabled_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
    return { url: `/api/users/${id}/reset-totp` };
  },
  'PUT /api/users/{id}/roles': async (a) => ({
    url: `/api/users/${await newUser(a)}/roles`,
    payload: { roleIds: [await newRole(a)] },
  }),
  'GET /api/roles': async () => ({ url: '/api/roles' }),
  'POST /api/roles': async () => ({ url: '/api/roles', payload: { code: fresh(), name: '新角色' } }),
  'GET /api/roles/export': async () => ({ url: '/api/roles/export' }),
  'GET /api/roles/{id}': async (a) => ({ url: `/api/roles/${await newRole(a)}` }),
  'PATCH /api/roles/{id}': async (a) => ({ url: `/api/roles/${await newRole(a)}`, payload: { name: '改名' } }),
  'DELETE /api/roles/{id}': async (a) => ({ url: `/api/roles/${await newRole(a)}` }),
  'POST /api/roles/batch-delete': async (a) => ({
    url: '/api/roles/batch-delete',
    payload: { ids: [await newRole(a)] },
  }),
  'PUT /api/roles/{id}/menus': async (a) => ({ url: `/api/roles/${await newRole(a)}/menus`, payload: { grants: [] } }),
  'GET /api/menus': async () => ({ url: '/api/menus' }),
  'GET /api/menus/{id}': async (a) => ({ url: `/api/menus/${await newMenu(a)}` }),
  'POST /api/menus': async () => ({ url: '/api/menus', payload: { code: fresh(), name: '新菜单' } }),
  'POST /api/menus/{id}/children': async (a) => ({
    url: `/api/menus/${await newMenu(a)}/children`,
    payload: { code: fresh(), name: '子菜单' },
  }),
  'PATCH /api/menus/{id}': async (a) => ({ url: `/api/menus/${await newMenu(a)}`, payload: { name: '改名' } }),
  'DELETE /api/menus/{id}': async (a) => ({ url: `/api/menus/${await newMenu(a)}` }),
  'GET /api/audit-logs': async () => ({ url: '/api/audit-logs' }),
  'GET /api/audit-logs/export': async () => ({ url: '/api/audit-logs/export' }),
  'GET /api/sessions': async () => ({ url: '/api/sessions' }),
  'GET /api/login-logs': async () => ({ url: '/api/login-logs' }),
  'GET /api/login-logs/export': async () => ({ url: '/api/login-logs/export' }),
  'DELETE /api/sessions/{id}': async (a, app) => ({ url: `/api/sessions/${await newSession(a, app)}` }),
  'POST /api/sessions/batch-delete': async (a, app) => ({
    url: '/api/sessions/batch-delete',
    payload: { ids: [await newSession(a, app)] },
  }),
  'POST /api/users/{id}/force-logout': async (a) => ({ url: `/api/users/${await newUser(a)}/force-logout` }),
};

const GUARDED = /^\/api\/(users|roles|menus|audit-logs|sessions|login-logs)(\/|$)/;

describeEachDb('permission guard on users, roles, menus, audit-log and session routes', (dialect) => {
  const t = useTestApp(dialect);
  let admin: Call;
  let probe: Call;
  let probeRole: string;
  let menus: Map<string, string>;
  const declared = new Map<string, { menu: string; bits: PermissionName[] }>();

  /** Replaces the probe role's grants (menu code → bits); the probe's next request sees them. */
  const grant = async (grants: Record<string, number>) => {
    const body = { grants: Object.entries(grants).map(([code, bits]) => ({ menuId: menus.get(code), bits })) };
    const res = await admin('PUT', `/api/roles/${probeRole}/menus`, body);
    expect(res.statusCode, res.body).toBe(200);
  };

  beforeAll(async () => {
    admin = await adminCall(t.app);
    menus = await menuIds(admin);
    probeRole = await createRole(admin, 'probe');
    await createUser(admin, 'probe', [probeRole]);
    probe = as(t.app, (await login(t.app, 'probe', PASSWORD)).accessToken);
    const doc = (await t.app.inject('/openapi.json')).json() as {
      paths: Record<string, Record<string, { 'x-permission'?: unknown }>>;
    };
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (!GUARDED.test(path)) continue;
      for (const [method, op] of Object.entries(ops))
        declared.set(`${method.toUpperCase()} ${path.replace(/\/$/, '') || '/'}`, op['x-permission'] as never);
    }
  });

  it('covers every users / roles / menus / audit-log / session route, each declaring a menu and bits', () => {
    expect([...declared.keys()].sort()).toEqual(Object.keys(ROUTES).sort());
    for (const [key, decl] of declared) {
      expect(decl, key).toMatchObject({
        menu: expect.stringMatching(/^system:(user|role|menu|audit|session|login-log)$/),
        bits: expect.any(Array),
      });
    }
  });

  for (const key of Object.keys(ROUTES)) {
    it(`${key}: 403 with one bit missing or bits on another menu only; 2xx with exactly the bits`, async () => {
      const decl = declared.get(key)!;
      const [method, path] = key.split(' ');
      const need = decl.bits.reduce((m, b) => m | PERMISSION[b], 0);
      const req = await ROUTES[key](admin, t.app);
      const send = () => probe(method as 'GET', req.url, req.payload);

      for (const bit of decl.bits) {
        await grant({ [decl.menu]: need & ~PERMISSION[bit] });
        const res = await send();
        expect(res.statusCode, `${key} without ${bit}`).toBe(403);
        expect(res.body).toBe(FORBIDDEN_BODY);
      }
      const other = decl.menu === 'system:user' ? 'system:role' : 'system:user';
      await grant({ [other]: 1023 });
      const elsewhere = await send();
      expect(elsewhere.statusCode, `${key} with the bits on ${other}`).toBe(403);
      expect(elsewhere.body).toBe(FORBIDDEN_BODY);

      await grant({ [decl.menu]: need });
      const ok = await send();
      expect(ok.statusCode, `${key} with ${decl.bits.join('+')}: ${ok.body}`).toBeGreaterThanOrEqual(200);
      expect(ok.statusCode).toBeLessThan(300);
      expect(path).toMatch(GUARDED);
    });
  }
});
