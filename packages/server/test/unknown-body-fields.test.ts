import type { RouteOptions } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { areaOfUrl } from '../src/http/areas.js';
import { ADMIN, describeEachDb, useTestApp } from './helpers.js';
import { adminCall, createRole, createUser, menuIds, type Call } from './admin-fixtures.js';

/** Issue 26: a body field no schema knows is a 400 naming it, as an unknown query parameter of the public API is. */

type Schema = { type?: string; properties?: Record<string, Schema>; additionalProperties?: unknown } & Record<
  string,
  unknown
>;

/** Paths (`body.grants.items`) of object schemas in `s` that let unknown properties through. */
function openObjects(s: unknown, at: string): string[] {
  if (s === null || typeof s !== 'object') return [];
  const node = s as Schema;
  const out: string[] = [];
  if ((node.type === 'object' || node.properties) && node.additionalProperties !== false) out.push(at);
  for (const [k, v] of Object.entries(node)) {
    if (k === 'properties')
      for (const [p, sub] of Object.entries(v as object)) out.push(...openObjects(sub, `${at}.${p}`));
    else if (k === 'items' || k === 'anyOf' || k === 'oneOf' || k === 'allOf')
      out.push(...openObjects(v, `${at}.${k}`));
  }
  return out;
}

describeEachDb('unknown body fields', (dialect) => {
  const routes: Array<{ route: string; body: unknown }> = [];
  const t = useTestApp(
    dialect,
    {},
    {
      onRoute: (r: RouteOptions) => {
        const body = (r.schema as { body?: unknown } | undefined)?.body;
        if (body && areaOfUrl(r.url) !== 'lookup')
          routes.push({ route: `${[r.method].flat().join(',')} ${r.url}`, body });
      },
    },
  );
  let admin: Call;
  beforeAll(async () => {
    admin = await adminCall(t.app);
  });

  it('every body schema of the admin API closes every object it describes', () => {
    expect(routes.length).toBeGreaterThan(20);
    const open = routes.flatMap((r) => openObjects(r.body, r.route));
    expect(open).toEqual([]);
  });

  it('sign-in with an extra field is a 400 naming it, without repeating the password', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { ...ADMIN, rememberMe: true },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'VALIDATION_ERROR',
      message: '参数 rememberMe 无效：不支持该参数，可用的参数为 username、password',
    });
    expect(res.body).not.toContain(ADMIN.password);
  });

  it('a typo in an edit is refused rather than answered 200 with nothing changed', async () => {
    const user = await createUser(admin, 'typo_target');
    const res = await admin('PATCH', `/api/users/${user}`, { nickname: '新昵称', stauts: 'disabled' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('参数 stauts 无效：不支持该参数，可用的参数为 username、nickname、status');
    const after = (await admin('GET', `/api/users/${user}`)).json().data;
    expect(after).toMatchObject({ nickname: '', status: 'enabled' });
  });

  it('nested and created: a grant with an extra field, a role with a field it does not have', async () => {
    const role = await createRole(admin, 'closed_body');
    const menuId = (await menuIds(admin)).get('system:user');
    const grants = await admin('PUT', `/api/roles/${role}/menus`, { grants: [{ menuId, bits: 1, menuCode: 'x' }] });
    expect(grants.statusCode).toBe(400);
    expect(grants.json().message).toBe('参数 grants.0.menuCode 无效：不支持该参数，可用的参数为 menuId、bits');
    const created = await admin('POST', '/api/roles', { code: 'with_extra', name: '多余字段', isSuper: true });
    expect(created.statusCode).toBe(400);
    expect(created.json().message).toContain('参数 isSuper 无效：不支持该参数');
    expect((await admin('GET', '/api/roles?keyword=with_extra')).json().data.total).toBe(0);
  });
});

describeEachDb('a body Fastify refuses to parse', (dialect) => {
  const t = useTestApp(dialect);
  const post = (url: string, payload: string) =>
    t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });
  const BAD_JSON = '参数 body 无效：应为有效的 JSON，且不能含有 __proto__ 或 constructor.prototype 键';

  it('a __proto__ or constructor.prototype key is a Chinese 400 naming body, as is broken JSON', async () => {
    for (const payload of [
      `{"username":"a","password":"b","__proto__":{"isSuper":true}}`,
      `{"username":"a","constructor":{"prototype":{"isSuper":true}}}`,
      '{"username":"a",',
    ]) {
      const res = await post('/api/auth/login', payload);
      expect(res.statusCode, payload).toBe(400);
      expect(res.json()).toEqual({ code: 'VALIDATION_ERROR', message: BAD_JSON });
    }
    const empty = await post('/api/auth/login', '');
    expect(empty.json()).toEqual({
      code: 'VALIDATION_ERROR',
      message: '参数 body 无效：Content-Type 为 application/json 时请求体不能为空',
    });
  });

  it('on the public API no body is parsed: a GET route answers, an unknown path is the 404 envelope', async () => {
    // Issue 50: every public route is a GET without a body, so a poisoned body reaches no parser there.
    const known = await t.app.inject({
      method: 'GET',
      url: '/api/password-strength?password=abc',
      headers: { 'content-type': 'application/json' },
      payload: '{"__proto__":{"x":1}}',
    });
    expect(known.statusCode, known.body).toBe(200);
    const res = await post('/api/v1/toolbox/password-strength', '{"__proto__":{"x":1}}');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 404, msg: expect.stringMatching(/^接口不存在：POST/), data: null });
  });
});
