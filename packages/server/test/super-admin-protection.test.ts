import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { superAdminIds, superRoleId, SUPER_ADMIN_RULES as RULES } from '../src/admin/super-admin.js';
import { describeEachDb, getTestInstance, login, type TestInstance } from './helpers.js';
import {
  adminCall,
  as,
  createRole,
  createUser,
  FORBIDDEN_BODY,
  PASSWORD,
  roleId,
  userWithGrants,
  type Call,
} from './admin-fixtures.js';

const protectedBody = (rule: string) => ({ code: 'SUPER_ADMIN_PROTECTED', message: rule });

async function activeSupers(t: TestInstance): Promise<number> {
  return (await superAdminIds(t.db.kysely, await superRoleId(t.db.kysely), true)).size;
}

describeEachDb('super administrator protection', (dialect) => {
  describe('rules', () => {
    let t: TestInstance;
    let admin: Call;
    let adminId: string;
    let superRole: string;
    beforeAll(async () => {
      t = await getTestInstance(dialect);
      admin = await adminCall(t.app);
      adminId = (await login(t.app)).user.id;
      superRole = await roleId(admin, 'super_admin');
    });
    afterAll(() => t.close());

    it('the role cannot be deleted, disabled, re-coded or re-granted; its name can change', async () => {
      expect((await admin('DELETE', `/api/roles/${superRole}`)).json()).toEqual(protectedBody(RULES.roleDelete));
      const other = await createRole(admin, 'bystander');
      const batch = await admin('POST', '/api/roles/batch-delete', { ids: [other, superRole] });
      expect(batch.statusCode).toBe(409);
      expect(batch.json()).toEqual(protectedBody(RULES.roleDelete));
      expect((await admin('GET', `/api/roles/${other}`)).statusCode).toBe(200);
      expect((await admin('PATCH', `/api/roles/${superRole}`, { status: 'disabled' })).json()).toEqual(
        protectedBody(RULES.roleDisable),
      );
      expect((await admin('PATCH', `/api/roles/${superRole}`, { code: 'root' })).json()).toEqual(
        protectedBody(RULES.roleCode),
      );
      const grants = await admin('PUT', `/api/roles/${superRole}/menus`, { grants: [] });
      expect(grants.statusCode).toBe(409);
      expect(grants.json()).toEqual(protectedBody(RULES.roleGrants));
      expect((await admin('PATCH', `/api/roles/${superRole}`, { name: '超管' })).json().data).toMatchObject({
        code: 'super_admin',
        name: '超管',
        status: 'enabled',
      });
      // Still all-ones on every menu.
      expect((await admin('GET', '/api/auth/me')).body).toContain('"permissions":9223372036854775807');
    });

    it('the last active super administrator cannot be deleted, disabled or lose the role', async () => {
      expect((await admin('DELETE', `/api/users/${adminId}`)).json()).toEqual(protectedBody(RULES.lastDelete));
      const plain = await createUser(admin, 'plain');
      const batch = await admin('POST', '/api/users/batch-delete', { ids: [plain, adminId] });
      expect(batch.json()).toEqual(protectedBody(RULES.lastDelete));
      expect((await admin('GET', `/api/users/${plain}`)).statusCode).toBe(200);
      expect((await admin('PATCH', `/api/users/${adminId}`, { status: 'disabled' })).json()).toEqual(
        protectedBody(RULES.lastDisable),
      );
      expect((await admin('PUT', `/api/users/${adminId}/roles`, { roleIds: [] })).json()).toEqual(
        protectedBody(RULES.lastRole),
      );
      const other = await createRole(admin, 'lesser');
      expect((await admin('PUT', `/api/users/${adminId}/roles`, { roleIds: [other] })).statusCode).toBe(409);
      expect(await activeSupers(t)).toBe(1);
      expect(
        (await admin('GET', '/api/users?keyword=admin'))
          .json()
          .data.items[0].roles.map((r: { code: string }) => r.code),
      ).toEqual(['super_admin']);
    });

    it('a disabled super administrator does not count as the one that remains', async () => {
      const b = await createUser(admin, 'sleeping_super', [superRole], { status: 'disabled' });
      expect((await admin('PUT', `/api/users/${adminId}/roles`, { roleIds: [] })).json()).toEqual(
        protectedBody(RULES.lastRole),
      );
      // Once the second one is enabled, the first may step down (and the second can restore them).
      await admin('PATCH', `/api/users/${b}`, { status: 'enabled' });
      expect((await admin('PUT', `/api/users/${adminId}/roles`, { roleIds: [] })).statusCode).toBe(200);
      const second = as(t.app, (await login(t.app, 'sleeping_super', PASSWORD)).accessToken);
      expect((await second('PUT', `/api/users/${adminId}/roles`, { roleIds: [superRole] })).statusCode).toBe(200);
      expect((await second('DELETE', `/api/users/${b}`)).json()).toEqual({
        code: 'CONFLICT',
        message: '不能删除自己的账号 (you cannot delete your own account)',
      });
      expect((await admin('DELETE', `/api/users/${b}`)).statusCode).toBe(204);
    });

    it('only a super administrator may grant the role or touch a super administrator’s account', async () => {
      const manager = await userWithGrants(t.app, admin, 'manager', { 'system:user': 1023 });
      const forbidden = async (method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: unknown) => {
        const res = await manager.call(method, url, payload);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.body).toBe(FORBIDDEN_BODY);
      };
      await forbidden('POST', '/api/users', { username: 'sneaky', password: PASSWORD, roleIds: [superRole] });
      await forbidden('PUT', `/api/users/${manager.id}/roles`, { roleIds: [manager.role, superRole] });
      await forbidden('PATCH', `/api/users/${adminId}`, { nickname: 'pwned' });
      await forbidden('PATCH', `/api/users/${adminId}`, { status: 'disabled' });
      await forbidden('POST', `/api/users/${adminId}/reset-password`, { password: 'taken-over-123' });
      await forbidden('PUT', `/api/users/${adminId}/roles`, { roleIds: [] });
      await forbidden('DELETE', `/api/users/${adminId}`);
      await forbidden('POST', '/api/users/batch-delete', { ids: [adminId] });
      // Ordinary accounts are theirs to manage.
      const plain = await createUser(manager.call, 'managed');
      expect((await manager.call('PATCH', `/api/users/${plain}`, { status: 'disabled' })).statusCode).toBe(200);
      expect((await manager.call('DELETE', `/api/users/${plain}`)).statusCode).toBe(204);
      expect((await login(t.app)).user.id).toBe(adminId);
    });
  });

  describe('concurrent demotions', () => {
    interface Admin {
      id: string;
      call: Call;
    }
    type Race = (x: Admin, y: Admin) => Array<ReturnType<Call>>;
    // Rounds after the first run warm, when the two requests overlap most; each round must hold on its own.
    const ROUNDS = 3;
    let t: TestInstance;
    let survivor: Admin;
    let superRole: string;
    let n = 0;
    beforeEach(async () => {
      t = await getTestInstance(dialect);
      const call = await adminCall(t.app);
      survivor = { id: (await login(t.app)).user.id, call };
      superRole = await roleId(call, 'super_admin');
    });
    afterEach(() => t.close());

    /** Makes `survivor` and a new super administrator the last two, races them, and checks exactly one request won. */
    async function race(run: Race, loserMayLoseAccess: boolean) {
      for (let round = 0; round < ROUNDS; round++) {
        const name = `second_${n++}`;
        const partner: Admin = {
          id: await createUser(survivor.call, name, [superRole]),
          call: as(t.app, (await login(t.app, name, PASSWORD)).accessToken),
        };
        expect(await activeSupers(t)).toBe(2);
        const results = await Promise.all(run(survivor, partner));
        const ok = results.filter((r) => r.statusCode >= 200 && r.statusCode < 300);
        expect(ok, results.map((r) => `${r.statusCode} ${r.body}`).join(' | ')).toHaveLength(1);
        const loser = results.find((r) => r.statusCode >= 300)!;
        // The loser is refused by the rule, or, when the winner had already disabled, deleted or demoted the loser's
        // own account before its request was authenticated, by the guard (401 / 403). Either way it changed nothing.
        if (loserMayLoseAccess && loser.statusCode !== 409)
          expect(['ACCOUNT_DISABLED', 'SESSION_ENDED', 'FORBIDDEN']).toContain(loser.json().code);
        else expect(loser.json()).toMatchObject({ code: 'SUPER_ADMIN_PROTECTED' });
        const left = await superAdminIds(t.db.kysely, superRole, true);
        expect(left.size).toBe(1);
        survivor = left.has(survivor.id) ? survivor : partner;
      }
    }

    it('two super administrators each dropping their own role at once: exactly one succeeds', () =>
      race(
        (x, y) => [
          x.call('PUT', `/api/users/${x.id}/roles`, { roleIds: [] }),
          y.call('PUT', `/api/users/${y.id}/roles`, { roleIds: [] }),
        ],
        false,
      ));

    it('two super administrators removing each other’s role at once: exactly one succeeds', () =>
      race(
        (x, y) => [
          x.call('PUT', `/api/users/${y.id}/roles`, { roleIds: [] }),
          y.call('PUT', `/api/users/${x.id}/roles`, { roleIds: [] }),
        ],
        true,
      ));

    it('two super administrators disabling each other at once: exactly one succeeds', () =>
      race(
        (x, y) => [
          x.call('PATCH', `/api/users/${y.id}`, { status: 'disabled' }),
          y.call('PATCH', `/api/users/${x.id}`, { status: 'disabled' }),
        ],
        true,
      ));

    it('two super administrators deleting each other at once: exactly one succeeds', () =>
      race((x, y) => [x.call('DELETE', `/api/users/${y.id}`), y.call('DELETE', `/api/users/${x.id}`)], true));

    it('a batch delete racing a role removal cannot remove both', () =>
      race(
        (x, y) => [
          y.call('POST', '/api/users/batch-delete', { ids: [x.id] }),
          x.call('PUT', `/api/users/${y.id}/roles`, { roleIds: [] }),
        ],
        true,
      ));
  });
});
