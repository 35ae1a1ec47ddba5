import { transact } from '../../db/transaction.js';
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/index.js';
import { conflict, invalidParamMessage, notFound } from '../../errors.js';
import { SUPER_ADMIN_ROLE } from '../auth/access.js';
import { nowIso } from '../auth/service.js';
import { normalizeMask, parseGrantBits, SUPER_MASK } from '../permissions/mask.js';
import { superAdminProtected, SUPER_ADMIN_RULES as RULES } from '../super-admin.js';
import { EscalationGuard, privilegeEscalation } from '../escalation.js';
import { changesOf, unique, type Actor } from '../shared/actor.js';
import { EXPORT_LIMIT, isUniqueViolation } from '../shared/query.js';
import { fieldError, type PageQuery } from '../shared/schemas.js';
import { rolesRepository as repo, type RoleFilter, type RoleRow } from './repository.js';
import type { CreateRoleInput, GrantInput, UpdateRoleInput } from './schemas.js';

export const toRoleDto = (r: RoleRow) => ({
  id: r.id,
  code: r.code,
  name: r.name,
  description: r.description,
  status: r.status,
  sort: Number(r.sort),
  requireTotp: Number(r.require_totp) === 1,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
export type RoleDto = ReturnType<typeof toRoleDto>;

const TOTP_RULE = '只有超级管理员可以设置角色的「要求两步验证」';
/** 409 naming `code`: one role per code. */
const codeTaken = (code: string, owner: { name: string }) =>
  conflict(invalidParamMessage('code', `角色编码不能重复，已被角色「${owner.name}」使用`, code));
/** 409 naming `name`: role names are unique as roleNameKey compares them, so no role can pass for another in a list. */
const nameTaken = (name: string, owner: { code: string; name: string }) =>
  conflict(
    invalidParamMessage(
      'name',
      `角色名称不能重复（比较时不区分大小写、全角半角，忽略空白），已被角色「${owner.name}」（${owner.code}）使用`,
      name,
    ),
  );

/**
 * Checks a grant list before anything is written: every `bits` made of the ten points (the all-ones mask belongs to
 * the super administrator role alone), no menu twice. Errors name the offending element, e.g. `grants.2.bits`.
 */
export function parseGrants(grants: GrantInput[]): Array<{ menuId: string; bits: number }> {
  const seen = new Set<string>();
  return grants.map((g, i) => {
    const bits = parseGrantBits(g.bits);
    if (bits === undefined)
      throw fieldError(`grants.${i}.bits`, '应为权限点之和（0 至 1023 的整数，由 1、2、4 … 512 组成）', g.bits);
    if (bits === SUPER_MASK)
      throw fieldError(
        `grants.${i}.bits`,
        '全部权限（-1 / 9223372036854775807）只属于超级管理员角色，请列出具体权限点',
        g.bits,
      );
    if (seen.has(g.menuId)) throw fieldError(`grants.${i}.menuId`, '同一菜单只能出现一次', g.menuId);
    seen.add(g.menuId);
    return { menuId: g.menuId, bits };
  });
}

/** Role administration. The super administrator role keeps its code, its status and its grants (409 SUPER_ADMIN_PROTECTED). */
export class RolesService {
  constructor(private readonly db: Db) {}

  private get k() {
    return this.db.kysely;
  }

  /** A page of roles, each with why the actor may not assign, switch or re-grant it (`deniedReason`, null when it may). */
  async list(actor: Actor, q: PageQuery & RoleFilter) {
    const { items, total } = await repo.list(this.k, q);
    return { items: await this.withDeniedReasons(actor, items.map(toRoleDto)), total };
  }

  private async withDeniedReasons<T extends RoleDto>(actor: Actor, roles: T[], db = this.k): Promise<T[]> {
    const refusals = await (await EscalationGuard.of(db, actor)).refusalsForRoles(roles.map((r) => r.id));
    return roles.map((r) => ({ ...r, ...(refusals.has(r.id) && { deniedReason: refusals.get(r.id) }) }));
  }

  async exportRows(f: RoleFilter) {
    const { items, total } = await repo.list(this.k, { ...f, page: 1, pageSize: EXPORT_LIMIT }, EXPORT_LIMIT, 0);
    return { items: items.map(toRoleDto), truncated: total > items.length };
  }

  /** The role with its grants; masks normalised (the super administrator's -1 → 9223372036854775807). */
  async get(actor: Actor, id: string, db = this.k) {
    const role = await repo.find(db, id);
    if (!role) throw notFound('role');
    const grants = await repo.grants(db, id);
    const [dto] = await this.withDeniedReasons(actor, [toRoleDto(role)], db);
    return {
      ...dto,
      grants: grants.map((g) => ({ menuId: g.menuId, menuCode: g.menuCode, bits: normalizeMask(g.bits) })),
    };
  }

  async create(actor: Actor, input: CreateRoleInput): Promise<RoleDto> {
    try {
      return await transact(this.k, async (trx) => {
        const sameCode = await repo.codeOwner(trx, input.code);
        if (sameCode) throw codeTaken(input.code, sameCode);
        const sameName = await repo.nameOwner(trx, input.name);
        if (sameName) throw nameTaken(input.name, sameName);
        if (input.requireTotp && !actor.isSuper) throw privilegeEscalation(TOTP_RULE);
        const now = nowIso();
        const row: RoleRow = {
          id: randomUUID(),
          code: input.code,
          name: input.name,
          description: input.description ?? '',
          status: input.status ?? 'enabled',
          sort: input.sort ?? 0,
          require_totp: input.requireTotp ? 1 : 0,
          created_at: now,
          updated_at: now,
        };
        await trx.insertInto('roles').values(row).execute();
        await actor.audit('role.create', 'role', row.id, { code: row.code, name: row.name, status: row.status }, trx);
        return toRoleDto(row);
      });
    } catch (e) {
      throw isUniqueViolation(e) ? await this.whichTaken(input) : e;
    }
  }

  /** After a unique violation (a concurrent write took the code or the name first): the 409 naming which. */
  private async whichTaken(input: { code?: string; name?: string }, exceptId?: string) {
    const sameName = input.name === undefined ? undefined : await repo.nameOwner(this.k, input.name, exceptId);
    if (sameName) return nameTaken(input.name!, sameName);
    const sameCode = input.code === undefined ? undefined : await repo.codeOwner(this.k, input.code, exceptId);
    return codeTaken(input.code ?? '', sameCode ?? { name: '另一个角色' });
  }

  async update(actor: Actor, id: string, patch: UpdateRoleInput): Promise<RoleDto> {
    try {
      return await transact(this.k, async (trx) => {
        const [before] = await repo.lockMany(trx, [id], this.db.dialect);
        if (!before) throw notFound('role');
        if (before.code === SUPER_ADMIN_ROLE) {
          if (patch.code !== undefined && patch.code !== before.code) throw superAdminProtected(RULES.roleCode);
          if (patch.status === 'disabled') throw superAdminProtected(RULES.roleDisable);
          if (!actor.isSuper && Object.keys(changesOf(toRoleDto(before), patch)).length)
            throw privilegeEscalation('只有超级管理员可以修改超级管理员角色');
        }
        const switching = patch.status !== undefined && patch.status !== before.status;
        const renaming =
          (patch.code !== undefined && patch.code !== before.code) ||
          (patch.name !== undefined && patch.name !== before.name);
        if (switching || renaming) {
          // Switching a role on or off changes what its holders can do, and a new name or code changes what an operator
          // believes it grants: only for a role the actor covers and does not hold.
          const escalation = await EscalationGuard.of(trx, actor);
          if (switching) {
            if (escalation.holdsRole(id)) throw privilegeEscalation(`你不能启用或停用自己所属的角色「${before.name}」`);
            await escalation.assertMayAssign([id]);
          }
          if (renaming) {
            if (escalation.holdsRole(id))
              throw privilegeEscalation(`你不能修改自己所属角色「${before.name}」的名称或编码`);
            await escalation.assertMayAssign([id], '修改该角色的名称或编码');
          }
        }
        if (patch.code !== undefined && patch.code !== before.code) {
          const sameCode = await repo.codeOwner(trx, patch.code, id);
          if (sameCode) throw codeTaken(patch.code, sameCode);
        }
        if (patch.name !== undefined && patch.name !== before.name) {
          const sameName = await repo.nameOwner(trx, patch.name, id);
          if (sameName) throw nameTaken(patch.name, sameName);
        }
        const changes = changesOf(toRoleDto(before), patch);
        if (Object.keys(changes).length === 0) return toRoleDto(before);
        if ('requireTotp' in changes && !actor.isSuper) throw privilegeEscalation(TOTP_RULE);
        const { requireTotp, ...columns } = patch;
        await trx
          .updateTable('roles')
          .set({
            ...columns,
            ...(requireTotp !== undefined && { require_totp: requireTotp ? 1 : 0 }),
            updated_at: nowIso(),
          })
          .where('id', '=', id)
          .execute();
        await actor.audit('role.update', 'role', id, { code: before.code, changes }, trx);
        return toRoleDto((await repo.find(trx, id))!);
      });
    } catch (e) {
      throw isUniqueViolation(e) ? await this.whichTaken(patch, id) : e;
    }
  }

  /**
   * Deletes roles with their user assignments and grants. Deleting takes from each holder what the role gave, as
   * disabling does, so it needs the same: a role the actor covers and does not hold; and a role that requires TOTP
   * (which only a super administrator sets) only by a super administrator. A batch with any refused role is refused
   * whole, as one holding the super administrator role is.
   */
  async delete(actor: Actor, ids: string[], action: 'role.delete' | 'role.batch-delete'): Promise<number> {
    return transact(this.k, async (trx) => {
      const found = await repo.lockMany(trx, unique(ids), this.db.dialect);
      if (action === 'role.delete' && found.length === 0) throw notFound('role');
      if (found.some((r) => r.code === SUPER_ADMIN_ROLE)) throw superAdminProtected(RULES.roleDelete);
      if (!actor.isSuper) {
        const totp = found.find((r) => Number(r.require_totp) === 1);
        if (totp)
          throw privilegeEscalation(
            `角色「${totp.name}」要求两步验证，只有超级管理员可以删除它（删除会取消其成员的两步验证要求）`,
          );
        const escalation = await EscalationGuard.of(trx, actor);
        const own = found.find((r) => escalation.holdsRole(r.id));
        if (own) throw privilegeEscalation(`你不能删除自己所属的角色「${own.name}」`);
        await escalation.assertMayAssign(
          found.map((r) => r.id),
          '删除该角色',
        );
      }
      const deleted = await repo.deleteMany(
        trx,
        found.map((r) => r.id),
      );
      if (deleted > 0) {
        const detail = { codes: found.map((r) => r.code) };
        await actor.audit(action, 'role', action === 'role.delete' ? found[0].id : null, detail, trx);
      }
      return deleted;
    });
  }

  /**
   * Replaces the role's grants. Takes effect on each holder's next request. Below super administrators, the actor may
   * only give or take away bits it holds itself, never on a role of its own (escalation.ts).
   */
  async setGrants(actor: Actor, id: string, input: GrantInput[]) {
    const requested = parseGrants(input);
    return transact(this.k, async (trx) => {
      const role = await repo.find(trx, id);
      if (!role) throw notFound('role');
      if (role.code === SUPER_ADMIN_ROLE) throw superAdminProtected(RULES.roleGrants);
      const escalation = await EscalationGuard.of(trx, actor);
      if (escalation.holdsRole(id)) throw privilegeEscalation(`你不能修改自己所属角色「${role.name}」的授权`);
      const menus = await trx.selectFrom('menus').select(['id', 'code', 'name']).execute();
      const codeOf = new Map(menus.map((m) => [m.id, m.code]));
      const idOf = new Map(menus.map((m) => [m.code, m.id]));
      const nameOf = new Map(menus.map((m) => [m.code, m.name]));
      const missing = requested.findIndex((g) => !codeOf.has(g.menuId));
      if (missing >= 0) throw fieldError(`grants.${missing}.menuId`, '菜单不存在', requested[missing].menuId);
      const before = await repo.grants(trx, id);
      const merged = escalation.mergeRoleGrants(
        new Map(before.map((g) => [g.menuCode, Number(g.bits)])),
        new Map(requested.map((g) => [codeOf.get(g.menuId)!, g.bits])),
      );
      const grants = [...merged].map(([code, bits]) => ({ menuId: idOf.get(code)!, bits }));
      await repo.setGrants(trx, id, grants);
      const detail = {
        code: role.code,
        // Menu names as they were, for the log to read 「古诗词：查询、新增、编辑」 even after a menu is deleted.
        from: before.map((g) => ({ menu: g.menuCode, name: nameOf.get(g.menuCode), bits: Number(g.bits) })),
        to: [...merged].map(([menu, bits]) => ({ menu, name: nameOf.get(menu), bits })),
      };
      await actor.audit('role.set-grants', 'role', id, detail, trx);
      return this.get(actor, id, trx);
    });
  }
}
