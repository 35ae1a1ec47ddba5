import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { AppError } from '../errors.js';
import { SUPER_ADMIN_ROLE } from './auth/access.js';
import { gaps, mergeGrants, unionOf, type Gap, type Holding } from './permissions/coverage.js';
import { SUPER_MASK } from './permissions/mask.js';
import { pointNames, PERMISSION, type PermissionName } from './permissions/points.js';
import type { Actor } from './shared/actor.js';

/** 403 PRIVILEGE_ESCALATION: the write would give someone (the actor included) more than the actor holds. */
export const privilegeEscalation = (message: string) => new AppError('PRIVILEGE_ESCALATION', message);

/** What the actor is doing to another account, in the words of the refusal: `你不能${action}`. */
export type AccountAction =
  | '操作该用户'
  | '编辑该用户'
  | '停用该用户'
  | '删除该用户'
  | '重置该用户的密码'
  | '解锁该用户'
  | '重置该用户的两步验证'
  | '修改该用户的角色'
  | '结束该用户的会话'
  | '强制该用户下线';

/** What the actor is doing to a role, in the words of the refusal: `你不能${action}`. */
export type RoleAction = '分配、启用或停用该角色' | '删除该角色' | '修改该角色的名称或编码';

interface GrantRow {
  owner: string;
  roleCode: string;
  menuCode: string | null;
  bits: number | string | null;
}

const MAX_NAMED = 3;

/**
 * Escalation prevention for one write, read inside the write's transaction (so a concurrent change of the actor's own
 * roles is seen as of that transaction): a non-super actor may only grant, assign or act on what its own enabled roles
 * cover (permissions/coverage.ts). A super administrator passes every check here; the super-administrator rules
 * (super-admin.ts) still apply to everyone.
 */
export class EscalationGuard {
  private constructor(
    private readonly trx: Kysely<Database>,
    private readonly actor: Actor,
    /** The actor's effective holding: the grants of its enabled roles. */
    readonly holding: Holding,
    /** Every role assigned to the actor, enabled or not. */
    private readonly ownRoles: Set<string>,
    private readonly menuNames: Map<string, string>,
  ) {}

  static async of(trx: Kysely<Database>, actor: Actor): Promise<EscalationGuard> {
    const menus = await trx.selectFrom('menus').select(['code', 'name']).execute();
    const names = new Map(menus.map((m) => [m.code, m.name]));
    if (actor.isSuper) return new EscalationGuard(trx, actor, { isSuper: true, masks: new Map() }, new Set(), names);
    const own = await trx.selectFrom('user_roles').select('role_id').where('user_id', '=', actor.id).execute();
    const holding = (await holdingsOf(trx, 'user', [actor.id], true)).get(actor.id) ?? {
      isSuper: false,
      masks: new Map(),
    };
    return new EscalationGuard(trx, actor, holding, new Set(own.map((r) => r.role_id)), names);
  }

  get isSuper() {
    return this.holding.isSuper;
  }

  /** Whether the actor holds every named point on the menu (used for permissions a request needs beyond its route's). */
  holds(menu: string, points: PermissionName[]): boolean {
    if (this.isSuper) return true;
    const need = points.reduce((m, p) => m | PERMISSION[p], 0);
    const held = this.holding.masks.get(menu);
    return held !== undefined && (held === SUPER_MASK || (held & need) === need);
  }

  /** Refuses unless the actor holds `points` on `menu`, with `why` saying what they were needed for. */
  requirePoints(menu: string, points: PermissionName[], why: string): void {
    if (!this.holds(menu, points)) {
      const bits = points.reduce((m, p) => m | PERMISSION[p], 0);
      throw privilegeEscalation(`你没有${this.describe([{ menu, bits }])}，${why}`);
    }
  }

  /**
   * Rule 3, as reasons: for each of `userIds` the actor may not act on, why not (the message of the refusal). An account
   * is covered when everything its roles grant (all of them, enabled or not) is held by the actor.
   */
  async refusalsForUsers(userIds: string[], action: AccountAction): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (this.isSuper || userIds.length === 0) return out;
    const held = await holdingsOf(this.trx, 'user', userIds, false);
    const names = await this.namesOf('users', 'username', [...held.keys()]);
    for (const [id, target] of held) {
      const missing = gaps(this.holding, target);
      if (missing.length)
        out.set(id, `用户「${names.get(id) ?? id}」拥有你没有的权限（${this.describe(missing)}），你不能${action}`);
    }
    return out;
  }

  /**
   * Rule 2, as reasons: for each role whose grants the actor does not cover (so may not assign, switch, re-grant,
   * rename or delete), why not.
   */
  async refusalsForRoles(
    roleIds: string[],
    action: RoleAction = '分配、启用或停用该角色',
  ): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (this.isSuper || roleIds.length === 0) return out;
    const held = await holdingsOf(this.trx, 'role', roleIds, false);
    const names = await this.namesOf('roles', 'name', roleIds);
    for (const id of roleIds) {
      const missing = gaps(this.holding, held.get(id) ?? { isSuper: false, masks: new Map() });
      if (missing.length)
        out.set(id, `角色「${names.get(id) ?? id}」含有你没有的权限（${this.describe(missing)}），你不能${action}`);
    }
    return out;
  }

  /**
   * Rule 2 for deleting menus, which takes every grant on them from every role: each such grant must be covered (the
   * super administrator role's are its by right, and come back with any new menu).
   */
  async assertMayRemoveGrantsOn(menuIds: string[], action: string): Promise<void> {
    if (this.isSuper || menuIds.length === 0) return;
    const rows = await this.trx
      .selectFrom('role_menus as rm')
      .innerJoin('roles as r', 'r.id', 'rm.role_id')
      .innerJoin('menus as m', 'm.id', 'rm.menu_id')
      .select(['r.name as role', 'm.code as menu', 'rm.bits'])
      .where('rm.menu_id', 'in', menuIds)
      .where('r.code', '!=', SUPER_ADMIN_ROLE)
      .orderBy('r.name')
      .orderBy('m.code')
      .execute();
    for (const row of rows) {
      const missing = gaps(this.holding, { isSuper: false, masks: new Map([[row.menu, Number(row.bits)]]) });
      if (missing.length)
        throw privilegeEscalation(
          `角色「${row.role}」被授予了你没有的权限（${this.describe(missing)}），你不能${action}`,
        );
    }
  }

  /** Throws the first refusal of rule 3 for these accounts, if any. */
  async assertMayActOn(userIds: string[], action: AccountAction): Promise<void> {
    const [first] = (await this.refusalsForUsers(userIds, action)).values();
    if (first) throw privilegeEscalation(first);
  }

  /** Rule 2: each role assigned (or switched, renamed, deleted: `action`) must be covered by the actor's own masks. */
  async assertMayAssign(roleIds: string[], action?: RoleAction): Promise<void> {
    const [first] = (await this.refusalsForRoles(roleIds, action)).values();
    if (first) throw privilegeEscalation(first);
  }

  private async namesOf(
    table: 'users' | 'roles',
    column: 'username' | 'name',
    ids: string[],
  ): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.trx
      .selectFrom(table)
      .select(['id', `${column} as name` as 'name'])
      .where('id', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [r.id as string, r.name as string]));
  }

  /** Nobody who is not a super administrator changes their own roles. */
  assertNotSelf(userId: string, message: string): void {
    if (!this.isSuper && userId === this.actor.id) throw privilegeEscalation(message);
  }

  /** Whether the role is one of the actor's own (enabled or not): such a role's grants and status are not the actor's to change. */
  holdsRole(roleId: string): boolean {
    return !this.isSuper && this.ownRoles.has(roleId);
  }

  /**
   * Rule 1: the grants a role ends with when the actor asks for `requested` (menu code → bits): refused when the request
   * adds anything the actor lacks; bits the role had and the actor lacks stay as they were.
   */
  mergeRoleGrants(existing: ReadonlyMap<string, number>, requested: ReadonlyMap<string, number>): Map<string, number> {
    const { grants, refused } = mergeGrants(this.holding, existing, requested);
    if (refused.length) throw privilegeEscalation(`你没有${this.describe(refused)}，不能授予`);
    return grants;
  }

  /** 「审计日志」的导出权限；「用户管理」的编辑、删除权限 — the first few gaps, in Chinese. */
  private describe(list: Gap[]): string {
    const parts = list.slice(0, MAX_NAMED).map((g) => {
      if (g.bits === SUPER_MASK) return '超级管理员的全部权限';
      const menu = `「${this.menuNames.get(g.menu) ?? g.menu}」`;
      return g.bits === 0 ? `${menu}菜单` : `${menu}的${pointNames(g.bits)}权限`;
    });
    return parts.join('；') + (list.length > MAX_NAMED ? ` 等 ${list.length} 项` : '');
  }
}

/**
 * Holdings (menu code → OR of bits) per user or per role. `enabledOnly` counts only enabled roles (what a user can use
 * now); without it every assigned role counts, so a disabled role cannot hide power that an edit could switch back on.
 */
async function holdingsOf(
  trx: Kysely<Database>,
  by: 'user' | 'role',
  ids: string[],
  enabledOnly: boolean,
): Promise<Map<string, Holding>> {
  let q = trx
    .selectFrom('roles as r')
    .leftJoin('role_menus as rm', 'rm.role_id', 'r.id')
    .leftJoin('menus as m', 'm.id', 'rm.menu_id')
    .select(['r.code as roleCode', 'm.code as menuCode', 'rm.bits'])
    // A stable order, so a refusal names the same menus in the same order on both databases.
    .orderBy('m.code');
  const rows: GrantRow[] =
    by === 'user'
      ? await q
          .innerJoin('user_roles as ur', 'ur.role_id', 'r.id')
          .select('ur.user_id as owner')
          .where('ur.user_id', 'in', ids)
          .$if(enabledOnly, (qb) => qb.where('r.status', '=', 'enabled'))
          .execute()
      : await (q = q.where('r.id', 'in', ids)).select('r.id as owner').execute();
  const grouped = new Map<string, GrantRow[]>();
  for (const row of rows) grouped.set(row.owner, [...(grouped.get(row.owner) ?? []), row]);
  const out = new Map<string, Holding>();
  for (const [owner, list] of grouped) {
    out.set(owner, {
      isSuper: list.some((r) => r.roleCode === SUPER_ADMIN_ROLE),
      masks: unionOf([list.filter((r) => r.menuCode !== null).map((r) => [r.menuCode!, Number(r.bits)] as const)]),
    });
  }
  return out;
}
