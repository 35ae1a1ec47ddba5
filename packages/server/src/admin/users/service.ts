import { transact } from '../../db/transaction.js';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Db } from '../../db/index.js';
import type { Database } from '../../db/schema.js';
import { conflict, forbidden, invalidParamMessage, notFound } from '../../errors.js';
import { hashPassword, nowIso, type EndedSession } from '../auth/service.js';
import { removeTotp } from '../auth/mfa.js';
import { removePasskeys } from '../auth/passkeys.js';
import { FailureStore } from '../auth/throttle.js';
import { rolesRepository } from '../roles/repository.js';
import { EscalationGuard, privilegeEscalation, type AccountAction } from '../escalation.js';
import { MENUS } from '../../catalogue/index.js';
import { isSuperAdmin, SuperAdminGuard, SUPER_ADMIN_RULES as RULES, superRoleId } from '../super-admin.js';
import { changesOf, unique, type Actor, type SessionInvalidator } from '../shared/actor.js';
import { EXPORT_LIMIT, isUniqueViolation } from '../shared/query.js';
import { fieldError, type PageQuery } from '../shared/schemas.js';
import { usersRepository as repo } from './repository.js';
import type { UserDto, UserFilterQuery } from './schemas.js';
import { usernameKey } from '../shared/username-key.js';

export interface CreateUserInput {
  username: string;
  nickname?: string;
  password: string;
  status?: 'enabled' | 'disabled';
  roleIds?: string[];
}

export interface UpdateUserInput {
  username?: string;
  nickname?: string;
  status?: 'enabled' | 'disabled';
}

/** 409 naming `username`, so a form shows it under the field: usernames compare as sign-in matches them (usernameKey). */
const taken = (username: string) =>
  conflict(invalidParamMessage('username', '用户名已被使用（比较时不区分大小写、全角半角），请换一个', username));

/** The menu that guards user administration (its GRANT point is also what `roleIds` on create needs). */
export const USERS_MENU = MENUS.users.code;

/**
 * User administration. Every write runs in one transaction with its audit row. Rules beyond the super-administrator
 * ones (super-admin.ts): nobody deletes or disables their own account (409 CONFLICT), and only a super administrator
 * may grant or revoke the super_admin role or touch a super administrator's account (403) — otherwise anyone holding
 * GRANT on system:user could make themselves super administrator. Below super administrators, escalation.ts holds the
 * rest: roles are assigned only when the actor covers them, never to oneself, and another account is edited, disabled,
 * deleted, reset or re-roled only when the actor covers everything it holds (403 PRIVILEGE_ESCALATION).
 */
/**
 * An operator's reset sets someone else's password. One's own goes through PUT /api/auth/password, which asks for the
 * current one: a stolen access token alone must not be enough to take the account for good (issue 26).
 */
export function refuseOwnReset(actor: Actor, id: string): void {
  if (id === actor.id)
    throw privilegeEscalation(
      '不能用重置密码修改自己的密码：请改用 PUT /api/auth/password（需提供当前密码 oldPassword），或在个人资料中修改密码',
    );
}

export class UsersService {
  constructor(
    private readonly db: Db,
    private readonly sessions: SessionInvalidator,
  ) {}

  private get k() {
    return this.db.kysely;
  }

  /** A page of users, each with why the actor may not act on it (`deniedReason`, null when it may). */
  async list(actor: Actor, q: PageQuery & UserFilterQuery) {
    const page = await repo.list(this.k, q);
    return { ...page, items: await this.withDeniedReasons(actor, page.items) };
  }

  private async withDeniedReasons(actor: Actor, users: UserDto[]): Promise<UserDto[]> {
    const guard = await EscalationGuard.of(this.k, actor);
    const refusals = await guard.refusalsForUsers(
      users.filter((u) => u.id !== actor.id).map((u) => u.id),
      '操作该用户',
    );
    return users.map((u) => ({ ...u, ...(refusals.has(u.id) && { deniedReason: refusals.get(u.id) }) }));
  }

  async exportRows(f: UserFilterQuery) {
    const { items, total } = await repo.list(this.k, { ...f, page: 1, pageSize: EXPORT_LIMIT }, EXPORT_LIMIT, 0);
    return { items, truncated: total > items.length };
  }

  async get(actor: Actor, id: string): Promise<UserDto> {
    const user = await repo.find(this.k, id);
    if (!user) throw notFound('user');
    return (await this.withDeniedReasons(actor, [user]))[0];
  }

  /** Unknown role ids → 400 naming roleIds; granting super_admin needs a super administrator; every role must be covered. */
  private async checkRoles(trx: Kysely<Database>, actor: Actor, guard: EscalationGuard, roleIds: string[]) {
    const found = await rolesRepository.findMany(trx, roleIds);
    const missing = roleIds.find((id) => !found.some((r) => r.id === id));
    if (missing) throw fieldError('roleIds', '角色不存在', missing);
    if (!actor.isSuper && roleIds.includes(await superRoleId(trx))) throw forbidden();
    await guard.assertMayAssign(roleIds);
  }

  async create(actor: Actor, input: CreateUserInput): Promise<UserDto> {
    const roleIds = unique(input.roleIds ?? []);
    if (await repo.usernameTaken(this.k, input.username)) throw taken(input.username);
    const passwordHash = await hashPassword(input.password);
    try {
      return await transact(this.k, async (trx) => {
        const escalation = await EscalationGuard.of(trx, actor);
        if (roleIds.length) escalation.requirePoints(USERS_MENU, ['GRANT'], '不能在创建用户时分配角色');
        await this.checkRoles(trx, actor, escalation, roleIds);
        const id = randomUUID();
        const now = nowIso();
        const user = {
          username: input.username,
          nickname: input.nickname ?? '',
          status: input.status ?? ('enabled' as const),
        };
        await trx
          .insertInto('users')
          .values({
            id,
            ...user,
            username_key: usernameKey(user.username),
            password_hash: passwordHash,
            token_version: 0,
            // The operator knows this password: its user replaces it at the first sign-in.
            must_change_password: 1,
            created_at: now,
            updated_at: now,
          })
          .execute();
        await repo.setRoles(trx, id, roleIds);
        await actor.audit('user.create', 'user', id, { ...user, roleIds }, trx);
        return (await repo.find(trx, id))!;
      });
    } catch (e) {
      throw isUniqueViolation(e) ? taken(input.username) : e;
    }
  }

  async update(actor: Actor, id: string, patch: UpdateUserInput): Promise<UserDto> {
    let ended: EndedSession[] = [];
    try {
      const after = await transact(this.k, async (trx) => {
        // Lock first: disabling may remove an active super administrator.
        const guard = patch.status === 'disabled' ? await SuperAdminGuard.lock(trx, this.db.dialect) : undefined;
        const before = await repo.find(trx, id);
        if (!before) throw notFound('user');
        if (!actor.isSuper && (await isSuperAdmin(trx, id))) throw forbidden();
        const disabling = guard !== undefined && before.status === 'enabled';
        if (id !== actor.id)
          await (await EscalationGuard.of(trx, actor)).assertMayActOn([id], disabling ? '停用该用户' : '编辑该用户');
        if (disabling) {
          guard.ensureOneRemainsWithout([id], RULES.lastDisable);
          if (id === actor.id) throw conflict('不能停用自己的账号 (you cannot disable your own account)');
        }
        if (
          patch.username !== undefined &&
          patch.username !== before.username &&
          (await repo.usernameTaken(trx, patch.username, id))
        ) {
          throw taken(patch.username);
        }
        const changes = changesOf(before, patch);
        if (Object.keys(changes).length === 0) return before;
        // Sessions before the user's row (the lock order, auth/service.ts endSessions).
        if (disabling) ({ ended } = await this.sessions.invalidateSessions(id, trx, 'ACCOUNT_DISABLED', actor.id));
        await trx
          .updateTable('users')
          .set({
            ...patch,
            ...(patch.username !== undefined && { username_key: usernameKey(patch.username) }),
            updated_at: nowIso(),
          })
          .where('id', '=', id)
          .execute();
        await actor.audit('user.update', 'user', id, { username: before.username, changes }, trx);
        return (await repo.find(trx, id))!;
      });
      await this.sessions.announce(ended);
      return after;
    } catch (e) {
      throw isUniqueViolation(e) ? taken(patch.username ?? '') : e;
    }
  }

  /** Deletes users (one or a batch). Refuses the whole batch if any rule fails. */
  async delete(actor: Actor, ids: string[], action: 'user.delete' | 'user.batch-delete'): Promise<number> {
    const wanted = unique(ids);
    return transact(this.k, async (trx) => {
      const guard = await SuperAdminGuard.lock(trx, this.db.dialect);
      const found = await repo.findMany(trx, wanted);
      if (action === 'user.delete' && found.length === 0) throw notFound('user');
      const foundIds = found.map((u) => u.id);
      if (!actor.isSuper && foundIds.some((id) => guard.isSuper(id))) throw forbidden();
      guard.ensureOneRemainsWithout(foundIds, RULES.lastDelete);
      if (foundIds.includes(actor.id)) throw conflict('不能删除自己的账号 (you cannot delete your own account)');
      await (await EscalationGuard.of(trx, actor)).assertMayActOn(foundIds, '删除该用户');
      const deleted = await repo.deleteMany(trx, foundIds);
      if (deleted > 0) {
        const detail =
          action === 'user.delete'
            ? { username: found[0].username }
            : { ids: foundIds, usernames: found.map((u) => u.username) };
        await actor.audit(action, 'user', action === 'user.delete' ? foundIds[0] : null, detail, trx);
      }
      return deleted;
    });
  }

  /** Sets a new password and ends every session of the user (token_version + 1). The password is never logged. */
  async resetPassword(actor: Actor, id: string, password: string): Promise<void> {
    refuseOwnReset(actor, id);
    const passwordHash = await hashPassword(password);
    const ended = await transact(this.k, async (trx) => {
      const user = await repo.find(trx, id);
      if (!user) throw notFound('user');
      if (!actor.isSuper && (await isSuperAdmin(trx, id))) throw forbidden();
      await (await EscalationGuard.of(trx, actor)).assertMayActOn([id], '重置该用户的密码');
      const { ended } = await this.sessions.invalidateSessions(id, trx, 'PASSWORD_CHANGED', actor.id);
      await trx
        .updateTable('users')
        .set({ password_hash: passwordHash, must_change_password: 1, updated_at: nowIso() })
        .where('id', '=', id)
        .execute();
      await actor.audit('user.reset-password', 'user', id, { username: user.username }, trx);
      return ended;
    });
    await this.sessions.announce(ended);
  }

  /**
   * Clears the user's sign-in throttling: the failures counted by username from every address and the lock of the
   * second step (throttle.ts clearAccount, as the server shell's `unlock`). Returns how many counters were cleared.
   * One's own account needs no cover; another's is refused as any other operation on it.
   */
  async unlock(actor: Actor, id: string): Promise<{ cleared: number }> {
    return transact(this.k, async (trx) => {
      const user = await this.actOn(trx, actor, id, '解锁该用户');
      const cleared = await new FailureStore(trx).clearAccount(user.username);
      await actor.audit('user.unlock', 'user', id, { username: user.username, cleared }, trx);
      return { cleared };
    });
  }

  /**
   * Removes the user's TOTP secret and recovery codes, and ends every session of the user: a reset means the
   * authenticator is lost or in the wrong hands, and a session signed in with it may be on that very device.
   * Only a super administrator resets a super administrator's; one's own goes through /api/auth/totp/disable.
   */
  async resetTotp(actor: Actor, id: string): Promise<void> {
    if (id === actor.id)
      throw privilegeEscalation('不能重置自己的两步验证：请在个人资料中关闭两步验证（需提供密码或验证码）');
    const ended = await transact(this.k, async (trx) => {
      const user = await this.actOn(trx, actor, id, '重置该用户的两步验证');
      if (!user.totpEnabled && user.passkeys === 0)
        throw conflict(`用户「${user.username}」没有启用两步验证，也没有通行密钥，无需重置`);
      // Sessions before the user's row (the lock order, auth/service.ts endSessions).
      const { ended } = await this.sessions.invalidateSessions(id, trx, 'FORCED_LOGOUT', actor.id);
      await removeTotp(trx, id);
      // A passkey is a second step as well (issue 53): the reset takes them all, wherever they may be.
      const passkeys = await removePasskeys(trx, id);
      await actor.audit(
        'user.reset-totp',
        'user',
        id,
        { username: user.username, ...(passkeys > 0 && { passkeys }) },
        trx,
      );
      return ended;
    });
    await this.sessions.announce(ended);
  }

  /** The user `id`, once the actor may act on it: 404, 403 for a super administrator's account (unless the actor is one), escalation. */
  private async actOn(trx: Kysely<Database>, actor: Actor, id: string, action: AccountAction): Promise<UserDto> {
    const user = await repo.find(trx, id);
    if (!user) throw notFound('user');
    if (id === actor.id) return user;
    if (!actor.isSuper && (await isSuperAdmin(trx, id))) throw forbidden();
    await (await EscalationGuard.of(trx, actor)).assertMayActOn([id], action);
    return user;
  }

  /** Replaces the user's roles. Takes effect on the user's next request (masks are read per request). */
  async setRoles(actor: Actor, id: string, roleIds: string[]): Promise<UserDto> {
    const wanted = unique(roleIds);
    return transact(this.k, async (trx) => {
      const guard = await SuperAdminGuard.lock(trx, this.db.dialect);
      const before = await repo.find(trx, id);
      if (!before) throw notFound('user');
      const escalation = await EscalationGuard.of(trx, actor);
      await this.checkRoles(trx, actor, escalation, wanted);
      const wasSuper = guard.isSuper(id);
      if (!actor.isSuper && wasSuper) throw forbidden();
      escalation.assertNotSelf(id, '你不能修改自己的角色');
      await escalation.assertMayActOn([id], '修改该用户的角色');
      if (wasSuper && !wanted.includes(guard.roleId)) guard.ensureOneRemainsWithout([id], RULES.lastRole);
      await repo.setRoles(trx, id, wanted);
      const after = (await repo.find(trx, id))!;
      const codes = (u: UserDto) => u.roles.map((r) => r.code);
      await actor.audit(
        'user.set-roles',
        'user',
        id,
        { username: before.username, from: codes(before), to: codes(after) },
        trx,
      );
      return after;
    });
  }
}
