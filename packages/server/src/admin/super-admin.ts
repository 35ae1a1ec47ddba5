import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Dialect } from '../db/index.js';
import { SUPER_ADMIN_ROLE } from './auth/access.js';
import { lockForWrite } from './shared/query.js';
import { AppError } from '../errors.js';

/** The messages of the super-administrator rules (409 SUPER_ADMIN_PROTECTED). */
export const SUPER_ADMIN_RULES = {
  roleDelete: 'the super administrator role cannot be deleted',
  roleDisable: 'the super administrator role cannot be disabled',
  roleCode: 'the code of the super administrator role cannot be changed',
  roleGrants: 'the menu grants of the super administrator role cannot be changed (it always holds every permission)',
  lastDelete:
    'cannot delete the last active super administrator: the system must keep at least one enabled super administrator',
  lastDisable:
    'cannot disable the last active super administrator: the system must keep at least one enabled super administrator',
  lastRole: 'cannot remove the super administrator role from the last active super administrator',
} as const;

/** Error for a violated super-administrator rule: 409 SUPER_ADMIN_PROTECTED with the rule in the message. */
export const superAdminProtected = (rule: string) => new AppError('SUPER_ADMIN_PROTECTED', rule);

export async function superRoleId(db: Kysely<Database>): Promise<string> {
  const row = await db.selectFrom('roles').select('id').where('code', '=', SUPER_ADMIN_ROLE).executeTakeFirstOrThrow();
  return row.id;
}

/** Ids of the users holding the super administrator role; with `onlyEnabled`, only the enabled ones (the active super administrators). */
export async function superAdminIds(db: Kysely<Database>, roleId: string, onlyEnabled = false): Promise<Set<string>> {
  let q = db
    .selectFrom('user_roles')
    .innerJoin('users', 'users.id', 'user_roles.user_id')
    .select('users.id')
    .where('user_roles.role_id', '=', roleId);
  if (onlyEnabled) q = q.where('users.status', '=', 'enabled');
  return new Set((await q.execute()).map((r) => r.id));
}

/** Whether the user holds the super administrator role. */
export async function isSuperAdmin(db: Kysely<Database>, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select('roles.id')
    .where('user_roles.user_id', '=', userId)
    .where('roles.code', '=', SUPER_ADMIN_ROLE)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The "never without an active super administrator" rule, checked inside the caller's transaction.
 *
 * `lock` must be the first statement of every transaction that can take the super administrator status away from
 * someone (delete, disable, role change). On PostgreSQL it locks the super_admin role row, so such transactions queue
 * one behind the other, and each counts the active super administrators only after the previous one committed
 * (READ COMMITTED gives every statement a fresh snapshot). On SQLite the transaction already runs alone.
 */
export class SuperAdminGuard {
  private constructor(
    readonly roleId: string,
    /** Enabled users holding the role, read after the lock. */
    readonly active: Set<string>,
    /** All users holding the role, read after the lock. */
    readonly holders: Set<string>,
  ) {}

  static async lock(trx: Kysely<Database>, dialect: Dialect): Promise<SuperAdminGuard> {
    const role = await lockForWrite(
      trx.selectFrom('roles').select('id').where('code', '=', SUPER_ADMIN_ROLE),
      dialect,
    ).executeTakeFirstOrThrow();
    const holders = await superAdminIds(trx, role.id);
    const active = await superAdminIds(trx, role.id, true);
    return new SuperAdminGuard(role.id, active, holders);
  }

  isSuper(userId: string): boolean {
    return this.holders.has(userId);
  }

  /** Throws SUPER_ADMIN_PROTECTED with `rule` when losing these users would leave no active super administrator. */
  ensureOneRemainsWithout(userIds: Iterable<string>, rule: string): void {
    const losing = new Set(userIds);
    if (![...losing].some((id) => this.active.has(id))) return;
    const remaining = [...this.active].filter((id) => !losing.has(id));
    if (remaining.length === 0) throw superAdminProtected(rule);
  }
}
