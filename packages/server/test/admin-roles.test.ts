import { beforeAll, expect, it } from 'vitest';
import { describeEachDb, useTestApp, login } from './helpers.js';
import {
  adminCall,
  as,
  createRole,
  createUser,
  menuIds,
  PASSWORD,
  roleId,
  setGrants,
  type Call,
} from './admin-fixtures.js';

describeEachDb('roles administration', (dialect) => {
  const t = useTestApp(dialect);
  let admin: Call;
  let menus: Map<string, string>;
  beforeAll(async () => {
    admin = await adminCall(t.app);
    menus = await menuIds(admin);
  });

  it('creates, reads, edits and lists roles', async () => {
    const res = await admin('POST', '/api/roles', { code: 'auditor', name: '审计员', description: '只读', sort: 5 });
    expect(res.statusCode).toBe(201);
    const role = res.json().data;
    expect(role).toMatchObject({ code: 'auditor', name: '审计员', description: '只读', status: 'enabled', sort: 5 });
    expect((await admin('GET', `/api/roles/${role.id}`)).json().data).toEqual({ ...role, grants: [] });
    const edited = await admin('PATCH', `/api/roles/${role.id}`, { name: '审计', status: 'disabled' });
    expect(edited.json().data).toMatchObject({ code: 'auditor', name: '审计', status: 'disabled' });
    const list = (await admin('GET', `/api/roles?keyword=${encodeURIComponent('审计')}`)).json().data;
    expect(list).toMatchObject({ total: 1, page: 1, pageSize: 20 });
    expect(list.items[0].id).toBe(role.id);
    expect(
      (await admin('GET', '/api/roles?status=disabled')).json().data.items.map((r: { code: string }) => r.code),
    ).toEqual(['auditor']);
  });

  it('refuses a taken code (409) and names the field of a bad one (400)', async () => {
    expect((await admin('POST', '/api/roles', { code: 'super_admin', name: 'x' })).statusCode).toBe(409);
    for (const code of ['A_upper', '1abc', 'a', 'x'.repeat(33), 'has space']) {
      const res = await admin('POST', '/api/roles', { code, name: 'x' });
      expect(res.statusCode, code).toBe(400);
      expect(res.json().message).toContain('参数 code');
    }
    expect((await admin('POST', '/api/roles', { code: 'no_name' })).json().message).toContain('name');
    const other = await createRole(admin, 'clash_me');
    expect((await admin('PATCH', `/api/roles/${other}`, { code: 'auditor' })).statusCode).toBe(409);
  });

  it('replaces grants; bits are normalised on the way out and validated on the way in', async () => {
    const id = await createRole(admin, 'granted');
    const res = await admin('PUT', `/api/roles/${id}/menus`, {
      grants: [
        { menuId: menus.get('system:user'), bits: 1 | 4 },
        { menuId: menus.get('system:role'), bits: '512' },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.grants).toEqual([
      { menuId: menus.get('system:role'), menuCode: 'system:role', bits: 512 },
      { menuId: menus.get('system:user'), menuCode: 'system:user', bits: 5 },
    ]);
    const replaced = await admin('PUT', `/api/roles/${id}/menus`, {
      grants: [{ menuId: menus.get('system:audit'), bits: 0 }],
    });
    expect(replaced.json().data.grants).toEqual([
      { menuId: menus.get('system:audit'), menuCode: 'system:audit', bits: 0 },
    ]);

    const bad: Array<[unknown, string]> = [
      [{ menuId: menus.get('system:user'), bits: 1024 }, 'grants.0.bits'],
      [{ menuId: menus.get('system:user'), bits: -2 }, 'grants.0.bits'],
      [{ menuId: menus.get('system:user'), bits: 1.5 }, 'grants.0.bits'],
      [{ menuId: menus.get('system:user'), bits: 'all' }, 'grants.0.bits'],
      [{ menuId: menus.get('system:user'), bits: -1 }, 'grants.0.bits'],
      [{ menuId: menus.get('system:user'), bits: '9223372036854775807' }, 'grants.0.bits'],
      [{ menuId: '00000000-0000-4000-8000-000000000000', bits: 1 }, 'grants.0.menuId'],
    ];
    for (const [grant, field] of bad) {
      const r = await admin('PUT', `/api/roles/${id}/menus`, { grants: [grant] });
      expect(r.statusCode, JSON.stringify(grant)).toBe(400);
      expect(r.json().message).toContain(`参数 ${field}`);
    }
    const dup = await admin('PUT', `/api/roles/${id}/menus`, {
      grants: [
        { menuId: menus.get('system:user'), bits: 1 },
        { menuId: menus.get('system:user'), bits: 2 },
      ],
    });
    expect(dup.json().message).toContain('grants.1.menuId');
    // Nothing changed by the refused requests.
    expect((await admin('GET', `/api/roles/${id}`)).json().data.grants).toHaveLength(1);
  });

  it('shows the super administrator grants as exact 2^63-1 digits', async () => {
    const res = await admin('GET', `/api/roles/${await roleId(admin, 'super_admin')}`);
    expect(res.body).toContain(
      `{"menuId":"${menus.get('system:user')}","menuCode":"system:user","bits":9223372036854775807}`,
    );
  });

  it('makes a menu granted with bits 0 visible in /api/auth/me with permissions 0, and nothing allowed on it', async () => {
    const role = await createRole(admin, 'looker', { 'system:audit': 0 });
    await createUser(admin, 'looker', [role]);
    const { accessToken } = await login(t.app, 'looker', PASSWORD);
    const me = as(t.app, accessToken);
    const body = (await me('GET', '/api/auth/me')).json().data;
    expect(body.permissions).toBe(0);
    expect(body.menus).toHaveLength(1);
    expect(body.menus[0]).toMatchObject({ code: 'system', permissions: 0 });
    expect(body.menus[0].children).toEqual([
      expect.objectContaining({ code: 'system:audit', permissions: 0, children: [] }),
    ]);
    expect((await me('GET', '/api/audit-logs')).statusCode).toBe(403);
  });

  it('a disabled role contributes nothing from the next request', async () => {
    const role = await createRole(admin, 'switchable', { 'system:user': 1 });
    await createUser(admin, 'switch_user', [role]);
    const me = as(t.app, (await login(t.app, 'switch_user', PASSWORD)).accessToken);
    expect((await me('GET', '/api/users')).statusCode).toBe(200);
    await admin('PATCH', `/api/roles/${role}`, { status: 'disabled' });
    expect((await me('GET', '/api/users')).statusCode).toBe(403);
    await setGrants(admin, role, { 'system:user': 1 | 512 });
    await admin('PATCH', `/api/roles/${role}`, { status: 'enabled' });
    expect((await me('GET', '/api/users/export')).statusCode).toBe(200);
  });

  it('deleting a role removes its user assignments and grants', async () => {
    const role = await createRole(admin, 'doomed', { 'system:user': 1 });
    const user = await createUser(admin, 'doomed_holder', [role]);
    expect((await admin('DELETE', `/api/roles/${role}`)).statusCode).toBe(204);
    expect((await admin('GET', `/api/roles/${role}`)).statusCode).toBe(404);
    expect((await admin('GET', `/api/users/${user}`)).json().data.roles).toEqual([]);
    const left = await t.db.kysely.selectFrom('role_menus').select('menu_id').where('role_id', '=', role).execute();
    expect(left).toEqual([]);
    const a = await createRole(admin, 'batch_a');
    const b = await createRole(admin, 'batch_b');
    expect((await admin('POST', '/api/roles/batch-delete', { ids: [a, b] })).json()).toEqual({ data: { deleted: 2 } });
    const audit = (await admin('GET', '/api/audit-logs?action=role.batch-delete')).json().data.items[0];
    expect(audit.detail.codes.sort()).toEqual(['batch_a', 'batch_b']);
  });

  it('exports CSV with a BOM and Chinese names', async () => {
    await admin('POST', '/api/roles', { code: 'exported', name: '导出角色', description: '=1+2' });
    const res = await admin('GET', '/api/roles/export?keyword=exported');
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      new RegExp(
        `^attachment; filename="roles-\\d{4}-\\d{2}-\\d{2}\\.csv"; filename\\*=UTF-8''${encodeURIComponent('角色-')}\\d{4}-\\d{2}-\\d{2}\\.csv$`,
      ),
    );
    const text = res.rawPayload.toString('utf8');
    expect(text.startsWith('\uFEFF角色编号,编码,名称,描述,状态,排序,要求两步验证,创建时间,更新时间\r\n')).toBe(true);
    expect(text).toMatch(/,exported,导出角色,'=1\+2,启用,0,否,\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},/);
  });
});
