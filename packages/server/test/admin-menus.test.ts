import { beforeAll, expect, it } from 'vitest';
import { describeEachDb, useTestApp } from './helpers.js';
import { adminCall, menuIds, roleId, type Call } from './admin-fixtures.js';

interface Node {
  id: string;
  parentId: string | null;
  code: string;
  children: Node[];
}

describeEachDb('menus administration', (dialect) => {
  const t = useTestApp(dialect);
  let admin: Call;
  const create = async (code: string, parent?: string, extra: Record<string, unknown> = {}) => {
    const res = await admin('POST', parent ? `/api/menus/${parent}/children` : '/api/menus', {
      code,
      name: `菜单 ${code}`,
      ...extra,
    });
    if (res.statusCode !== 201) throw new Error(`${res.statusCode} ${res.body}`);
    return res.json().data as Node;
  };
  beforeAll(async () => {
    admin = await adminCall(t.app);
  });

  it('returns the whole tree with the seeded system menus in order', async () => {
    const res = await admin('GET', '/api/menus');
    expect(res.statusCode).toBe(200);
    const system = (res.json().data as Node[]).find((n) => n.code === 'system')!;
    expect(system).toMatchObject({
      parentId: null,
      name: '系统管理',
      path: '/system',
      icon: 'settings',
      sort: 10,
      builtIn: true,
    });
    expect(system.children.map((c) => c.code)).toEqual([
      'system:user',
      'system:role',
      'system:menu',
      'system:audit',
      'system:session',
      'system:login-log',
    ]);
    expect(system.children.every((c) => c.parentId === system.id)).toBe(true);
  });

  it('creates a root and children; the super administrator gets every permission on them at once', async () => {
    const root = await create('tools', undefined, { path: '/tools', icon: 'wrench', sort: 99 });
    expect(root).toMatchObject({
      parentId: null,
      code: 'tools',
      name: '菜单 tools',
      path: '/tools',
      icon: 'wrench',
      sort: 99,
      builtIn: false,
      children: [],
    });
    const child = await create('tools:qr', root.id);
    expect(child.parentId).toBe(root.id);
    const got = (await admin('GET', `/api/menus/${root.id}`)).json().data as Node;
    expect(got.children.map((c) => c.code)).toEqual(['tools:qr']);
    const superRole = await admin('GET', `/api/roles/${await roleId(admin, 'super_admin')}`);
    expect(superRole.body).toContain(`{"menuId":"${root.id}","menuCode":"tools","bits":9223372036854775807}`);
    expect(superRole.body).toContain(`{"menuId":"${child.id}","menuCode":"tools:qr","bits":9223372036854775807}`);
    const me = await admin('GET', '/api/auth/me');
    expect(me.body).toContain(
      `"code":"tools:qr","name":"菜单 tools:qr","path":"","icon":"","sort":0,"permissions":9223372036854775807`,
    );
  });

  it('refuses a taken code (409), a bad code (400 naming it) and an unknown parent (404)', async () => {
    expect((await admin('POST', '/api/menus', { code: 'system:user', name: 'x' })).statusCode).toBe(409);
    const bad = await admin('POST', '/api/menus', { code: 'Bad Code', name: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('参数 code');
    expect((await admin('POST', '/api/menus', { code: 'nameless' })).json().message).toContain('name');
    expect(
      (await admin('POST', '/api/menus/00000000-0000-4000-8000-000000000000/children', { code: 'orphan', name: 'x' }))
        .statusCode,
    ).toBe(404);
  });

  it('edits and moves a menu, but never under itself or its descendants', async () => {
    const a = await create('move_a');
    const b = await create('move_b', a.id);
    const c = await create('move_c', b.id);
    const edited = await admin('PATCH', `/api/menus/${c.id}`, { name: '改名', parentId: null, sort: 3 });
    expect(edited.json().data).toMatchObject({ name: '改名', parentId: null, sort: 3 });
    for (const target of [a.id, b.id]) {
      const res = await admin('PATCH', `/api/menus/${a.id}`, { parentId: target === a.id ? a.id : b.id });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain('参数 parentId');
    }
    const unknown = await admin('PATCH', `/api/menus/${a.id}`, { parentId: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.json().message).toContain('parentId');
    expect((await admin('PATCH', `/api/menus/${b.id}`, { parentId: c.id })).json().data.parentId).toBe(c.id);
    expect((await admin('PATCH', `/api/menus/${a.id}`, { code: 'system' })).statusCode).toBe(409);
  });

  it('keeps built-in menus: no delete, no code change', async () => {
    const ids = await menuIds(admin);
    const del = await admin('DELETE', `/api/menus/${ids.get('system:audit')}`);
    expect(del.statusCode).toBe(409);
    expect(del.json().message).toContain('system:audit');
    expect((await admin('PATCH', `/api/menus/${ids.get('system:user')}`, { code: 'system:people' })).statusCode).toBe(
      409,
    );
    expect((await admin('PATCH', `/api/menus/${ids.get('system:user')}`, { name: '用户' })).json().data.name).toBe(
      '用户',
    );
  });

  it('refuses to delete a menu with children unless cascade=true; grants go with the menus', async () => {
    const parent = await create('del_parent');
    const kid = await create('del_kid', parent.id);
    const res = await admin('DELETE', `/api/menus/${parent.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('CONFLICT');
    expect((await admin('DELETE', `/api/menus/${parent.id}?cascade=true`)).statusCode).toBe(204);
    expect((await admin('GET', `/api/menus/${kid.id}`)).statusCode).toBe(404);
    const grants = await t.db.kysely
      .selectFrom('role_menus')
      .select('menu_id')
      .where('menu_id', 'in', [parent.id, kid.id])
      .execute();
    expect(grants).toEqual([]);
    const leaf = await create('del_leaf');
    expect((await admin('DELETE', `/api/menus/${leaf.id}`)).statusCode).toBe(204);
    const audit = (await admin('GET', '/api/audit-logs?action=menu.delete')).json().data.items;
    expect(audit.map((r: { detail: { deleted: string[] } }) => r.detail.deleted)).toEqual([
      ['del_leaf'],
      ['del_parent', 'del_kid'],
    ]);
  });
});
