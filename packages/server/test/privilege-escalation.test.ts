import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../src/db/schema.js';
import { describeEachDb, getTestInstance, login, type TestInstance } from './helpers.js';
import {
  adminCall,
  as,
  createRole,
  createUser,
  menuIds,
  PASSWORD,
  userWithGrants,
  type Call,
} from './admin-fixtures.js';

const ALL = 1023;
const escalation = (res: { statusCode: number; json(): { code: string; message: string } }, ...words: string[]) => {
  expect(res.statusCode, JSON.stringify(res.json())).toBe(403);
  expect(res.json().code).toBe('PRIVILEGE_ESCALATION');
  for (const w of words) expect(res.json().message).toContain(w);
};

/** menu code → bits a user holds now through enabled roles (what the guard would use). */
async function effective(db: Kysely<Database>, userId: string, enabledOnly = true): Promise<Map<string, number>> {
  let q = db
    .selectFrom('user_roles as ur')
    .innerJoin('roles as r', 'r.id', 'ur.role_id')
    .innerJoin('role_menus as rm', 'rm.role_id', 'r.id')
    .innerJoin('menus as m', 'm.id', 'rm.menu_id')
    .select(['m.code', 'rm.bits'])
    .where('ur.user_id', '=', userId);
  if (enabledOnly) q = q.where('r.status', '=', 'enabled');
  const out = new Map<string, number>();
  for (const r of await q.execute()) out.set(r.code, (out.get(r.code) ?? 0) | Number(r.bits));
  return out;
}

async function grantsOf(admin: Call, roleId: string): Promise<Record<string, number>> {
  const res = await admin('GET', `/api/roles/${roleId}`);
  return Object.fromEntries(
    (res.json().data.grants as Array<{ menuCode: string; bits: number }>).map((g) => [g.menuCode, Number(g.bits)]),
  );
}

describeEachDb('privilege escalation prevention', (dialect) => {
  let t: TestInstance;
  let admin: Call;
  let menus: Map<string, string>;
  beforeAll(async () => {
    t = await getTestInstance(dialect);
    admin = await adminCall(t.app);
    menus = await menuIds(admin);
  });
  afterAll(() => t.close());

  describe('grants (rule 1)', () => {
    it('a role manager cannot grant its own role everything', async () => {
      const mgr = await userWithGrants(t.app, admin, 'role_mgr', { 'system:role': 1 | 256 });
      const every = [...menus.values()].map((menuId) => ({ menuId, bits: ALL }));
      escalation(await mgr.call('PUT', `/api/roles/${mgr.role}/menus`, { grants: every }), '自己所属角色');
      expect(await grantsOf(admin, mgr.role)).toEqual({ 'system:role': 257 });
      expect((await mgr.call('GET', '/api/users')).statusCode).toBe(403);
      // Nor through another role it then holds: a fresh role granted everything is refused for what it lacks.
      const other = await createRole(admin, 'blank');
      escalation(await mgr.call('PUT', `/api/roles/${other}/menus`, { grants: every }), '你没有「', '不能授予');
      expect(await grantsOf(admin, other)).toEqual({});
    });

    it('grants only what the actor holds, names what it lacks, and leaves bits it lacks untouched', async () => {
      const mgr = await userWithGrants(t.app, admin, 'grantor', { 'system:role': 1 | 256, 'system:audit': 1 });
      const role = await createRole(admin, 'audited', { 'system:audit': 1 | 512, 'monitor:api': 1 });
      const audit = menus.get('system:audit')!;
      // Asking for EXPORT on the audit log, which the grantor lacks and the role does not have… (it has it: unchanged is fine)
      const res = await mgr.call('PUT', `/api/roles/${role}/menus`, { grants: [{ menuId: audit, bits: 0 }] });
      expect(res.statusCode, res.body).toBe(200);
      // SEARCH (held) was removed; EXPORT (not held) and monitor:api (menu not held) stay as they were.
      expect(await grantsOf(admin, role)).toEqual({ 'system:audit': 512, 'monitor:api': 1 });
      const fresh = await createRole(admin, 'fresh');
      const refused = await mgr.call('PUT', `/api/roles/${fresh}/menus`, {
        grants: [{ menuId: audit, bits: 1 | 512 }],
      });
      escalation(refused, '你没有「审计日志」的导出权限，不能授予');
      escalation(
        await mgr.call('PUT', `/api/roles/${fresh}/menus`, {
          grants: [{ menuId: menus.get('monitor:api')!, bits: 0 }],
        }),
        '「接口统计」菜单',
      );
      expect(await grantsOf(admin, fresh)).toEqual({});
      expect(
        (await mgr.call('PUT', `/api/roles/${fresh}/menus`, { grants: [{ menuId: audit, bits: 1 }] })).statusCode,
      ).toBe(200);
      expect(await grantsOf(admin, fresh)).toEqual({ 'system:audit': 1 });
    });

    it('a role of one’s own cannot be switched on, and the super administrator role’s name is for super administrators', async () => {
      const mgr = await userWithGrants(t.app, admin, 'role_editor', { 'system:role': ALL });
      const sleeping = await createRole(admin, 'sleeping', { 'system:user': ALL });
      await admin('PATCH', `/api/roles/${sleeping}`, { status: 'disabled' });
      await admin('PUT', `/api/users/${mgr.id}/roles`, { roleIds: [mgr.role, sleeping] });
      escalation(await mgr.call('PATCH', `/api/roles/${sleeping}`, { status: 'enabled' }), '自己所属的角色');
      expect((await mgr.call('GET', '/api/users')).statusCode).toBe(403);
      const superRole = (await admin('GET', '/api/roles?keyword=super_admin')).json().data.items[0].id;
      escalation(await mgr.call('PATCH', `/api/roles/${superRole}`, { name: '我的角色' }), '超级管理员');
      expect((await admin('GET', `/api/roles/${superRole}`)).json().data.name).toBe('超级管理员');
      // A role the actor covers and does not hold can be switched.
      const small = await createRole(admin, 'small', { 'system:role': 1 });
      expect((await mgr.call('PATCH', `/api/roles/${small}`, { status: 'disabled' })).statusCode).toBe(200);
    });
  });

  describe('role assignment (rule 2)', () => {
    it('ADD without GRANT cannot create a user with roles', async () => {
      const adder = await userWithGrants(t.app, admin, 'adder', { 'system:user': 1 | 2 });
      const strong = await createRole(admin, 'strong', { 'system:audit': ALL });
      escalation(
        await adder.call('POST', '/api/users', { username: 'puppet', password: PASSWORD, roleIds: [strong] }),
        '「用户管理」的授权权限',
      );
      expect((await admin('GET', '/api/users?keyword=puppet')).json().data.total).toBe(0);
      expect((await adder.call('POST', '/api/users', { username: 'plain', password: PASSWORD })).statusCode).toBe(201);
    });

    it('assigning needs every assigned role covered, and nobody changes their own roles', async () => {
      const granter = await userWithGrants(t.app, admin, 'granter', { 'system:user': 1 | 2 | 256, 'system:audit': 1 });
      const strong = await createRole(admin, 'strong2', { 'system:audit': 1 | 512 });
      const weak = await createRole(admin, 'weak2', { 'system:audit': 1 });
      escalation(
        await granter.call('POST', '/api/users', { username: 'puppet2', password: PASSWORD, roleIds: [strong] }),
        '角色「角色 strong2」',
        '导出',
        '你不能分配、启用或停用该角色',
      );
      const created = await granter.call('POST', '/api/users', {
        username: 'helper2',
        password: PASSWORD,
        roleIds: [weak],
      });
      expect(created.statusCode, created.body).toBe(201);
      const helper = created.json().data.id;
      escalation(await granter.call('PUT', `/api/users/${helper}/roles`, { roleIds: [weak, strong] }), '导出');
      escalation(
        await granter.call('PUT', `/api/users/${granter.id}/roles`, { roleIds: [granter.role, weak] }),
        '你不能修改自己的角色',
      );
      escalation(
        await granter.call('PUT', `/api/users/${granter.id}/roles`, { roleIds: [granter.role] }),
        '你不能修改自己的角色',
      );
      expect(await effective(t.db.kysely, granter.id)).toEqual(
        new Map([
          ['system:user', 259],
          ['system:audit', 1],
        ]),
      );
      expect((await granter.call('PUT', `/api/users/${helper}/roles`, { roleIds: [] })).statusCode).toBe(200);
      const roleMgr = await userWithGrants(t.app, admin, 'role_reader', { 'system:role': 1, 'system:audit': 1 });
      const rows = (await roleMgr.call('GET', '/api/roles?pageSize=100')).json().data.items as Array<{
        id: string;
        deniedReason: string | null;
      }>;
      expect(rows.find((r) => r.id === strong)!.deniedReason).toContain('「审计日志」的导出权限');
      expect(rows.find((r) => r.id === weak)!.deniedReason).toBeUndefined();
    });
  });

  describe('acting on another account (rule 3)', () => {
    it('a password resetter cannot take over a stronger account, but may reset a weaker one', async () => {
      const resetter = await userWithGrants(t.app, admin, 'resetter', { 'system:user': 1 | 128 });
      const boss = await userWithGrants(t.app, admin, 'boss', { 'system:user': ALL, 'system:audit': ALL });
      escalation(
        await resetter.call('POST', `/api/users/${boss.id}/reset-password`, { password: 'taken-over-123' }),
        '用户「boss」',
        '你不能重置该用户的密码',
      );
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/auth/login',
            payload: { username: 'boss', password: 'taken-over-123' },
          })
        ).statusCode,
      ).toBe(401);
      expect((await boss.call('GET', '/api/auth/me')).statusCode).toBe(200);
      const minion = await createUser(admin, 'minion', [await createRole(admin, 'minion_role', { 'system:user': 1 })]);
      expect(
        (await resetter.call('POST', `/api/users/${minion}/reset-password`, { password: 'fresh-pass-123' })).statusCode,
      ).toBe(204);
      // The list tells the client which rows to disable, with the same reason.
      const rows = (await resetter.call('GET', '/api/users?pageSize=100')).json().data.items as Array<{
        username: string;
        deniedReason: string | null;
      }>;
      const reason = (name: string) => rows.find((r) => r.username === name)!.deniedReason;
      expect(reason('boss')).toContain('用户「boss」拥有你没有的权限');
      expect(reason('admin')).toContain('超级管理员');
      expect(reason('minion')).toBeUndefined();
      expect(reason('resetter')).toBeUndefined();
      expect((await resetter.call('GET', `/api/users/${boss.id}`)).json().data.deniedReason).toBe(reason('boss'));
    });

    it('edit, disable, delete and re-role need the target covered, also through a disabled role', async () => {
      const op = await userWithGrants(t.app, admin, 'operator', { 'system:user': 1 | 4 | 8 | 16 | 256 });
      const hidden = await createRole(admin, 'hidden_power', { 'system:role': ALL });
      await admin('PATCH', `/api/roles/${hidden}`, { status: 'disabled' });
      const target = await createUser(admin, 'dormant', [hidden]);
      escalation(
        await op.call('PATCH', `/api/users/${target}`, { nickname: 'x' }),
        '用户「dormant」',
        '你不能编辑该用户',
      );
      escalation(await op.call('PATCH', `/api/users/${target}`, { status: 'disabled' }), '你不能停用该用户');
      escalation(await op.call('DELETE', `/api/users/${target}`), '你不能删除该用户');
      const peer = await createUser(admin, 'peer', []);
      escalation(await op.call('POST', '/api/users/batch-delete', { ids: [peer, target] }), '删除');
      expect((await admin('GET', `/api/users/${peer}`)).statusCode).toBe(200);
      escalation(await op.call('PUT', `/api/users/${target}/roles`, { roleIds: [] }), '你不能修改该用户的角色');
      expect((await op.call('PATCH', `/api/users/${peer}`, { nickname: '同事' })).statusCode).toBe(200);
      expect((await op.call('DELETE', `/api/users/${peer}`)).statusCode).toBe(204);
    });
  });

  describe('ending sessions (rule 3)', () => {
    it('an operator of 在线会话 cannot sign out or end the sessions of a stronger account', async () => {
      const op = await userWithGrants(t.app, admin, 'session_op', { 'system:session': 1 | 8 | 16, 'system:user': 1 });
      const strong = await userWithGrants(t.app, admin, 'strong_one', { 'system:user': ALL });
      const weak = await userWithGrants(t.app, admin, 'weak_one', { 'system:user': 1 });
      escalation(
        await op.call('POST', `/api/users/${strong.id}/force-logout`),
        '用户「strong_one」',
        '你不能强制该用户下线',
      );
      expect((await strong.call('GET', '/api/auth/me')).statusCode).toBe(200);
      const sessions = (await op.call('GET', '/api/sessions?pageSize=100')).json().data.items as Array<{
        id: string;
        userId: string;
      }>;
      const strongSession = sessions.find((x) => x.userId === strong.id)!;
      escalation(await op.call('DELETE', `/api/sessions/${strongSession.id}`), '你不能结束该用户的会话');
      escalation(
        await op.call('POST', '/api/sessions/batch-delete', {
          ids: sessions.filter((x) => x.userId === strong.id || x.userId === weak.id).map((x) => x.id),
        }),
        '你不能结束该用户的会话',
      );
      expect((await strong.call('GET', '/api/auth/me')).statusCode).toBe(200);
      expect((await op.call('POST', `/api/users/${weak.id}/force-logout`)).statusCode).toBeLessThan(300);
      expect((await weak.call('GET', '/api/auth/me')).statusCode).toBe(401);
    });
  });

  describe('property: nobody ends up holding what nobody below the super administrator held', () => {
    const codes = ['system:user', 'system:role', 'system:audit', 'monitor:api'];
    const pick = <T>(rnd: () => number, xs: T[]) => xs[Math.floor(rnd() * xs.length)];
    const subset = <T>(rnd: () => number, xs: T[], p = 0.4) => xs.filter(() => rnd() < p);
    // Roles start with points that let an actor act (SEARCH, ADD, EDIT, DELETE, GRANT, RESET_PASSWORD, EXPORT); requests
    // ask for any of the ten, so BATCH_DELETE, ADD_CHILD and RESET are bits that nobody holds and nobody may mint.
    const bitsFrom = (rnd: () => number, points: number[], p: number) =>
      points.filter(() => rnd() < p).reduce((a, b) => a | b, 0);
    const startBits = (rnd: () => number) => bitsFrom(rnd, [1, 2, 4, 8, 128, 256, 512], 0.75);
    const anyBits = (rnd: () => number) => bitsFrom(rnd, [1, 2, 4, 8, 16, 32, 64, 128, 256, 512], 0.25);

    it.each([1, 2, 3, 4])('seed %i: a lone actor never gains, and the group never mints a bit', async (seed) => {
      let s = seed * 2654435761;
      const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
      const roles: string[] = [];
      for (let i = 0; i < 5; i++) {
        const grants: Record<string, number> = {};
        for (const c of subset(rnd, codes, 0.8)) grants[c] = startBits(rnd);
        roles.push(await createRole(admin, `p${seed}_${i}`, grants));
      }
      const users: Array<{ id: string; call: Call }> = [];
      for (let i = 0; i < 4; i++) {
        const name = `pu${seed}x${i}`;
        const id = await createUser(admin, name, [roles[i], ...subset(rnd, roles, 0.3)]);
        users.push({ id, call: as(t.app, (await login(t.app, name, PASSWORD)).accessToken) });
      }
      const start = new Map(
        await Promise.all(users.map(async (u) => [u.id, await effective(t.db.kysely, u.id, false)] as const)),
      );
      const mintable = new Map<string, number>();
      for (const h of start.values()) for (const [m, b] of h) mintable.set(m, (mintable.get(m) ?? 0) | b);
      // This seed's users: the four above and those the actors create. In a fixed order, so that a seed picks the same
      // targets every run (PostgreSQL returns rows in whatever order updates left them).
      const allUsers = () =>
        t.db.kysely
          .selectFrom('users')
          .select('id')
          .where((eb) => eb.or([eb('username', 'like', `pu${seed}x%`), eb('username', 'like', `n${seed}x%`)]))
          .orderBy('username')
          .execute();

      const lone = users[seed % users.length];
      let allowed = 0;
      for (let step = 0; step < 60; step++) {
        const actor = step < 25 ? lone : pick(rnd, users);
        const op = Math.floor(rnd() * 5);
        const targetUser = pick(
          rnd,
          (await allUsers()).map((u) => u.id),
        );
        let res: { statusCode: number };
        if (op === 0) {
          const grants = subset(rnd, codes, 0.5).map((c) => ({ menuId: menus.get(c)!, bits: anyBits(rnd) }));
          res = await actor.call('PUT', `/api/roles/${pick(rnd, roles)}/menus`, { grants });
        } else if (op === 1) {
          res = await actor.call('PUT', `/api/users/${rnd() < 0.3 ? actor.id : targetUser}/roles`, {
            roleIds: subset(rnd, roles),
          });
        } else if (op === 2) {
          res = await actor.call('POST', '/api/users', {
            username: `n${seed}x${step}`,
            password: PASSWORD,
            roleIds: subset(rnd, roles, 0.3),
          });
        } else if (op === 3) {
          res = await actor.call('PATCH', `/api/roles/${pick(rnd, roles)}`, {
            status: rnd() < 0.5 ? 'enabled' : 'disabled',
          });
        } else {
          res = await actor.call('PATCH', `/api/users/${targetUser}`, { status: rnd() < 0.7 ? 'enabled' : 'disabled' });
        }
        if (res.statusCode < 300) allowed++;
        if (step === 24) {
          // After the lone actor's turns: it holds nothing that no role of its own held at the start.
          const now = await effective(t.db.kysely, lone.id);
          for (const [m, b] of now)
            expect(b & ~(start.get(lone.id)!.get(m) ?? 0), `seed ${seed}: lone actor gained on ${m}`).toBe(0);
        }
      }
      expect(allowed, 'the sequence exercised allowed calls too').toBeGreaterThan(3);
      for (const { id } of await allUsers()) {
        for (const [m, b] of await effective(t.db.kysely, id))
          expect(b & ~(mintable.get(m) ?? 0), `seed ${seed}: ${id} minted on ${m}`).toBe(0);
      }
    });
  });
});
