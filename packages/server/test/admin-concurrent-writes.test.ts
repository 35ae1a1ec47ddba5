import { beforeAll, expect, it } from 'vitest';
import { describeEachDb, useTestApp } from './helpers.js';
import { adminCall, createRole, createUser, roleId, type Call } from './admin-fixtures.js';

/**
 * Administrative writes that touch the same rows from different sides, fired together. On PostgreSQL they run on
 * separate connections; the explicit row locks (super_admin role, menus, roles) are taken before any write, so
 * they queue instead of deadlocking (a deadlock would surface as a 500).
 */
describeEachDb('concurrent administrative writes', (dialect) => {
  const t = useTestApp(dialect);
  let admin: Call;
  beforeAll(async () => {
    admin = await adminCall(t.app);
  });

  it('menus, grants, roles and user demotions racing each other all finish without a server error', async () => {
    const superRole = await roleId(admin, 'super_admin');
    const other = await createRole(admin, 'racer');
    const system = (await admin('GET', '/api/menus')).json().data[0].id as string;
    for (let round = 0; round < 5; round++) {
      const user = await createUser(admin, `racer_${round}`, [superRole]);
      const results = await Promise.all([
        admin('POST', '/api/menus', { code: `race_root_${round}`, name: '根' }),
        admin('PUT', `/api/users/${user}/roles`, { roleIds: [other] }),
        admin('POST', `/api/menus/${system}/children`, { code: `race_child_${round}`, name: '子' }),
        admin('PUT', `/api/roles/${other}/menus`, { grants: [{ menuId: system, bits: round }] }),
        admin('PATCH', `/api/roles/${superRole}`, { name: `超级管理员 ${round}` }),
        admin('DELETE', `/api/users/${user}`),
      ]);
      const codes = results.map((r) => r.statusCode);
      expect(
        codes.filter((c) => c >= 500),
        results.map((r) => r.body).join(' | '),
      ).toEqual([]);
      // The role change and the delete of the same user race: whichever ran second sees the other's result.
      expect([200, 404]).toContain(codes[1]);
      expect([codes[0], codes[2], codes[3], codes[4], codes[5]]).toEqual([201, 201, 200, 200, 204]);
    }
  });
});
