import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/migrate.js';
import type { Db } from '../src/db/index.js';
import { describeEachDb, freshDb, useTestApp } from './helpers.js';
import { adminCall, createRole, createUser, menuIds, setGrants, userWithGrants, type Call } from './admin-fixtures.js';

/** Issue 26, authority edges: deleting or renaming a role, deleting a menu, and role names that pass for others. */

const ALL = 1023;
const escalation = (
  res: { statusCode: number; body: string; json(): { code: string; message: string } },
  ...words: string[]
) => {
  expect(res.statusCode, res.body).toBe(403);
  expect(res.json().code).toBe('PRIVILEGE_ESCALATION');
  for (const w of words) expect(res.json().message).toContain(w);
};

describeEachDb('deleting and renaming a role need the coverage disabling needs', (dialect) => {
  const t = useTestApp(dialect);
  let admin: Call;
  beforeAll(async () => {
    admin = await adminCall(t.app);
  });

  it('an operator who may not disable a stronger user’s role can neither delete it nor then take the account over', async () => {
    // Role administration (search, edit, delete, batch delete) and password resets, but no audit-log power.
    const op = await userWithGrants(t.app, admin, 'role_cleaner', {
      'system:role': 1 | 4 | 8 | 16,
      'system:user': 1 | 128,
    });
    const bossRole = await createRole(admin, 'boss_power', { 'system:user': 1 | 128, 'system:audit': ALL });
    const boss = await createUser(admin, 'the_boss', [bossRole]);
    const weak = await createRole(admin, 'weak_one', { 'system:user': 1 });

    escalation(
      await op.call('PATCH', `/api/roles/${bossRole}`, { status: 'disabled' }),
      '你不能分配、启用或停用该角色',
    );
    escalation(
      await op.call('DELETE', `/api/roles/${bossRole}`),
      '角色「角色 boss_power」',
      '「审计日志」',
      '你不能删除该角色',
    );
    escalation(await op.call('POST', '/api/roles/batch-delete', { ids: [weak, bossRole] }), '你不能删除该角色');
    // All or nothing: the weak role of the refused batch is still there, and the boss keeps the role.
    expect((await admin('GET', `/api/roles/${weak}`)).statusCode).toBe(200);
    expect((await admin('GET', `/api/users/${boss}`)).json().data.roles.map((r: { id: string }) => r.id)).toEqual([
      bossRole,
    ]);
    // The step the deletion used to open: the boss is still stronger, so the reset is refused and the password holds.
    escalation(
      await op.call('POST', `/api/users/${boss}/reset-password`, { password: 'taken-over-456' }),
      '你不能重置该用户的密码',
    );
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'the_boss', password: 'taken-over-456' },
    });
    expect(signIn.statusCode).toBe(401);

    // A renamed role misleads whoever assigns it next: a name or code edit needs the same coverage.
    escalation(await op.call('PATCH', `/api/roles/${bossRole}`, { name: '访客' }), '你不能修改该角色的名称或编码');
    escalation(await op.call('PATCH', `/api/roles/${bossRole}`, { code: 'guest' }), '你不能修改该角色的名称或编码');
    expect((await admin('GET', `/api/roles/${bossRole}`)).json().data).toMatchObject({
      code: 'boss_power',
      name: '角色 boss_power',
    });

    // What the operator covers it may rename and delete, alone or in a batch.
    expect((await op.call('PATCH', `/api/roles/${weak}`, { name: '只读用户' })).statusCode).toBe(200);
    const weak2 = await createRole(admin, 'weak_two', { 'system:user': 1 });
    expect((await op.call('POST', '/api/roles/batch-delete', { ids: [weak, weak2] })).json()).toEqual({
      data: { deleted: 2 },
    });
  });

  it('nobody below the super administrator deletes or renames a role of their own', async () => {
    const op = await userWithGrants(t.app, admin, 'self_deleter', { 'system:role': ALL });
    escalation(await op.call('DELETE', `/api/roles/${op.role}`), '你不能删除自己所属的角色');
    escalation(await op.call('PATCH', `/api/roles/${op.role}`, { name: '随便' }), '自己所属角色');
    expect((await op.call('GET', '/api/auth/me')).statusCode).toBe(200);
  });

  it('only a super administrator deletes a role that requires TOTP', async () => {
    const op = await userWithGrants(t.app, admin, 'totp_remover', { 'system:role': ALL, 'system:user': ALL });
    const res = await admin('POST', '/api/roles', { code: 'totp_role', name: '必须两步验证', requireTotp: true });
    const totpRole = res.json().data.id as string;
    await setGrants(admin, totpRole, { 'system:user': 1 });
    escalation(await op.call('DELETE', `/api/roles/${totpRole}`), '要求两步验证', '只有超级管理员可以删除');
    escalation(await op.call('POST', '/api/roles/batch-delete', { ids: [totpRole] }), '只有超级管理员');
    expect((await admin('GET', `/api/roles/${totpRole}`)).json().data.requireTotp).toBe(true);
    expect((await admin('DELETE', `/api/roles/${totpRole}`)).statusCode).toBe(204);
  });

  describe('a custom menu', () => {
    it('is deleted only by an operator who holds every bit any role is granted on it', async () => {
      const menu = (await admin('POST', '/api/menus', { code: 'custom:ledger', name: '财务台账' })).json().data.id;
      const child = (
        await admin('POST', `/api/menus/${menu}/children`, { code: 'custom:ledger.items', name: '明细' })
      ).json().data.id;
      await createRole(admin, 'finance', { 'custom:ledger': 1 | 512, 'custom:ledger.items': 1 | 2 });
      const op = await userWithGrants(t.app, admin, 'menu_pruner', { 'system:menu': ALL, 'custom:ledger': 1 });
      escalation(
        await op.call('DELETE', `/api/menus/${menu}?cascade=true`),
        '角色「角色 finance」',
        '「财务台账」的导出权限',
        '你不能删除这些菜单',
      );
      escalation(await op.call('DELETE', `/api/menus/${child}`), '「明细」', '你不能删除该菜单');
      expect((await menuIds(admin)).has('custom:ledger.items')).toBe(true);
      const financeRole = (await admin('GET', '/api/roles?keyword=finance')).json().data.items[0].id;
      expect((await admin('GET', `/api/roles/${financeRole}`)).json().data.grants).toHaveLength(2);
      // Holding what the finance role has on them, the operator may delete them.
      await setGrants(admin, op.role, { 'system:menu': ALL, 'custom:ledger': 1 | 512, 'custom:ledger.items': 1 | 2 });
      expect((await op.call('DELETE', `/api/menus/${menu}?cascade=true`)).statusCode).toBe(204);
      expect((await admin('GET', `/api/roles/${financeRole}`)).json().data.grants).toEqual([]);
    });
  });
});

describeEachDb('role names are unique', (dialect) => {
  const t = useTestApp(dialect);
  let admin: Call;
  beforeAll(async () => {
    admin = await adminCall(t.app);
  });

  const nameConflict = (res: { statusCode: number; body: string; json(): { code: string; message: string } }) => {
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().code).toBe('CONFLICT');
    expect(res.json().message).toMatch(/^参数 name 无效：角色名称不能重复/);
  };

  it('a second 「超级管理员」 cannot be made, in any spelling that reads the same', async () => {
    for (const name of ['超级管理员', '超级管理员 ', ' 超级 管理员', '超级管理员\u200b', '超级管理员\u3000']) {
      const res = await admin('POST', '/api/roles', { code: `fake_${randomUUID().slice(0, 8)}`, name });
      nameConflict(res);
      expect(res.json().message).toContain('已被角色「超级管理员」（super_admin）使用');
    }
    await admin('POST', '/api/roles', { code: 'auditor_a', name: 'Auditor' });
    nameConflict(await admin('POST', '/api/roles', { code: 'auditor_b', name: 'ＡＵＤＩＴＯＲ' }));
    const roles = (await admin('GET', '/api/roles?pageSize=100')).json().data.items as Array<{ name: string }>;
    expect(roles.filter((r) => r.name.includes('超级管理员'))).toHaveLength(1);
  });

  it('a role cannot be renamed onto another’s name, but may keep or re-case its own', async () => {
    const a = await createRole(admin, 'named_a');
    nameConflict(await admin('PATCH', `/api/roles/${a}`, { name: '超级管理员' }));
    expect((await admin('PATCH', `/api/roles/${a}`, { name: '角色 named_a', sort: 3 })).statusCode).toBe(200);
    expect((await admin('PATCH', `/api/roles/${a}`, { name: '角色 NAMED_A' })).statusCode).toBe(200);
  });

  it('a taken code is refused in Chinese naming 编码 and the role that has it, on creation and on renaming', async () => {
    const codeConflict = (res: { statusCode: number; body: string; json(): { code: string; message: string } }) => {
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toEqual({
        code: 'CONFLICT',
        message: '参数 code 无效：角色编码不能重复，已被角色「超级管理员」使用，收到 "super_admin"',
      });
    };
    codeConflict(await admin('POST', '/api/roles', { code: 'super_admin', name: '另一个超管' }));
    const a = await createRole(admin, 'coded_a');
    codeConflict(await admin('PATCH', `/api/roles/${a}`, { code: 'super_admin' }));
  });

  it('concurrent creations of one name: one is made, the others are told why, none is a 500', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => admin('POST', '/api/roles', { code: `racer_${i}`, name: '抢注的名字' })),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of answers.filter((x) => x.statusCode === 409)) nameConflict(r);
  });
});

describeEachDb('migration 0012 renames roles that already share a name', (dialect) => {
  let db: Db;
  beforeAll(async () => {
    db = await freshDb(dialect);
    await migrateToLatest(db, '0011-account-security');
  });
  afterAll(() => db.close());

  it('keeps the super administrator’s and the oldest name, suffixes the others, and never fails', async () => {
    const long = '长'.repeat(64);
    const rows: Array<[string, string, string]> = [
      // [code, name, created_at]: the impostor is older than the real super administrator role.
      ['impostor', '超级管理员', '2020-01-01T00:00:00.000Z'],
      ['super_admin', '超级管理员', '2021-01-01T00:00:00.000Z'],
      ['taken_suffix', '超级管理员（2）', '2019-01-01T00:00:00.000Z'],
      ['auditor', 'Auditor', '2020-01-01T00:00:00.000Z'],
      ['auditor2', 'auditor ', '2020-02-01T00:00:00.000Z'],
      ['long_a', long, '2020-01-01T00:00:00.000Z'],
      ['long_b', long, '2020-01-02T00:00:00.000Z'],
      ['plain', '普通', '2020-01-01T00:00:00.000Z'],
    ];
    for (const [code, name, at] of rows)
      await db.kysely
        .insertInto('roles')
        .values({
          id: randomUUID(),
          code,
          name,
          description: '',
          status: 'enabled',
          sort: 0,
          require_totp: 0,
          created_at: at,
          updated_at: at,
        })
        .execute();
    await migrateToLatest(db);
    const names = Object.fromEntries(
      (await db.kysely.selectFrom('roles').select(['code', 'name']).execute()).map((r) => [r.code, r.name]),
    );
    expect(names).toEqual({
      super_admin: '超级管理员',
      impostor: '超级管理员（3）',
      taken_suffix: '超级管理员（2）',
      auditor: 'Auditor',
      auditor2: 'auditor （2）',
      long_a: long,
      long_b: `${'长'.repeat(61)}（2）`,
      plain: '普通',
    });
    const audit = await db.kysely
      .selectFrom('audit_logs')
      .select('detail')
      .where('action', '=', 'role.rename-duplicate')
      .execute();
    expect(audit).toHaveLength(3);
    // The database now refuses a duplicate name itself.
    await expect(
      db.kysely
        .insertInto('roles')
        .values({
          id: randomUUID(),
          code: 'again',
          name: '普通',
          description: '',
          status: 'enabled',
          sort: 0,
          require_totp: 0,
          created_at: '2022-01-01T00:00:00.000Z',
          updated_at: '2022-01-01T00:00:00.000Z',
        })
        .execute(),
    ).rejects.toThrow();
  });
});
