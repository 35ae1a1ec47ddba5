import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeEachDb, login, useTestApp } from './helpers.js';
import { insertUser, me, signIn } from './auth-fixtures.js';

/**
 * The guard serves roles, grants and menus from a cache keyed by a revision the database bumps on every change.
 * These tests change the tables behind the API's back — the way a migration, the CLI or another instance would —
 * and expect the very next request to see it.
 */
describeEachDb('permissions follow the database on the very next request', (dialect) => {
  let n = 0;
  const now = () => new Date().toISOString();

  const menuId = async (code: string) =>
    (await t.db.kysely.selectFrom('menus').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;
  const newRole = async (grants: Record<string, number>) => {
    const id = randomUUID();
    await t.db.kysely
      .insertInto('roles')
      .values({
        id,
        code: `role${++n}`,
        name: `Role ${n}`,
        description: '',
        status: 'enabled',
        sort: n,
        require_totp: 0,
        created_at: now(),
        updated_at: now(),
      })
      .execute();
    for (const [code, bits] of Object.entries(grants))
      await t.db.kysely
        .insertInto('role_menus')
        .values({ role_id: id, menu_id: await menuId(code), bits })
        .execute();
    return id;
  };
  const grant = (userId: string, roleId: string) =>
    t.db.kysely.insertInto('user_roles').values({ user_id: userId, role_id: roleId }).execute();
  const view = async (token: string) => {
    const res = await me(t.app, token);
    expect(res.statusCode).toBe(200);
    const { permissions, menus, roles } = res.json().data;
    const flat: Record<string, number> = {};
    const walk = (nodes: Array<{ code: string; permissions: number; children: unknown[] }>) =>
      nodes.forEach((m) => {
        flat[m.code] = m.permissions;
        walk(m.children as typeof nodes);
      });
    walk(menus);
    return { permissions, menus: flat, roles: (roles as Array<{ code: string }>).map((r) => r.code) };
  };
  const freshSession = async () => {
    const username = `access${++n}`;
    const id = await insertUser(t.db, username);
    return { id, token: (await signIn(t.app, username)).accessToken };
  };

  const t = useTestApp(dialect);

  it('a role granted in the database shows at once, its menu with the ancestor at 0', async () => {
    const { id, token } = await freshSession();
    expect(await view(token)).toEqual({ permissions: 0, menus: {}, roles: [] });
    const role = await newRole({ 'system:user': 5 });
    await grant(id, role);
    expect(await view(token)).toMatchObject({
      permissions: 5,
      menus: { system: 0, 'system:user': 5 },
      roles: [`role${n}`],
    });
  });

  it('ORs the grants of several roles per menu and over all menus', async () => {
    const { id, token } = await freshSession();
    await grant(id, await newRole({ 'system:user': 1, 'system:role': 256 }));
    await grant(id, await newRole({ 'system:user': 4 }));
    expect(await view(token)).toMatchObject({ permissions: 261, menus: { 'system:user': 5, 'system:role': 256 } });
  });

  it('a grant lowered to 0 keeps the menu visible with no actions', async () => {
    const { id, token } = await freshSession();
    const role = await newRole({ 'system:menu': 12 });
    await grant(id, role);
    expect((await view(token)).menus['system:menu']).toBe(12);
    await t.db.kysely.updateTable('role_menus').set({ bits: 0 }).where('role_id', '=', role).execute();
    expect(await view(token)).toMatchObject({ permissions: 0, menus: { system: 0, 'system:menu': 0 } });
  });

  it('a disabled role, a removed grant and a removed role assignment stop counting at once', async () => {
    const { id, token } = await freshSession();
    const role = await newRole({ 'system:audit': 1 });
    await grant(id, role);
    expect((await view(token)).permissions).toBe(1);
    await t.db.kysely.updateTable('roles').set({ status: 'disabled' }).where('id', '=', role).execute();
    expect(await view(token)).toEqual({ permissions: 0, menus: {}, roles: [] });
    await t.db.kysely.updateTable('roles').set({ status: 'enabled' }).where('id', '=', role).execute();
    expect((await view(token)).permissions).toBe(1);
    await t.db.kysely.deleteFrom('role_menus').where('role_id', '=', role).execute();
    expect(await view(token)).toMatchObject({ permissions: 0, menus: {} });
    await t.db.kysely.deleteFrom('user_roles').where('user_id', '=', id).execute();
    expect((await view(token)).roles).toEqual([]);
  });

  it('the permission guard follows the same data: 403 before the grant, 200 after, 403 again when revoked', async () => {
    const { id, token } = await freshSession();
    const list = () => t.app.inject({ url: '/api/users', headers: { authorization: `Bearer ${token}` } });
    expect((await list()).statusCode).toBe(403);
    const role = await newRole({ 'system:user': 1 });
    await grant(id, role);
    expect((await list()).statusCode).toBe(200);
    await t.db.kysely.updateTable('role_menus').set({ bits: 2 }).where('role_id', '=', role).execute();
    expect((await list()).statusCode).toBe(403);
  });

  it('a renamed menu and a new menu reach the menu tree at once (the super administrator sees every menu)', async () => {
    const { accessToken } = await login(t.app);
    const res0 = (await me(t.app, accessToken)).json().data.menus as Array<{ code: string; name: string }>;
    expect(res0.find((m) => m.code === 'system')?.name).toBeDefined();
    await t.db.kysely.updateTable('menus').set({ name: '系统设置' }).where('code', '=', 'system').execute();
    await t.db.kysely
      .insertInto('menus')
      .values({
        id: randomUUID(),
        parent_id: null,
        code: 'zz-new',
        name: 'New',
        path: '/zz',
        icon: 'box',
        sort: 999,
        created_at: now(),
        updated_at: now(),
      })
      .execute();
    const menus = (await me(t.app, accessToken)).json().data.menus as Array<{ code: string; name: string }>;
    expect(menus.find((m) => m.code === 'system')?.name).toBe('系统设置');
    expect(menus.at(-1)?.code).toBe('zz-new');
  });
});
