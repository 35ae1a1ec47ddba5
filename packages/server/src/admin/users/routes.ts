import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { data } from '../auth/schemas.js';
import { actorOf } from '../shared/actor.js';
import { assertPasswordPolicy } from '../auth/password-policy.js';
import { sendCsv, type CsvColumn } from '../../shared/csv.js';
import { exportTime, yesNo, zhName } from '../../shared/export-format.js';
import { STATUS_NAMES } from '../shared/schemas.js';
import {
  CsvResponse,
  DeletedSchema,
  IdParams,
  IdsBody,
  NoContent,
  PagedSchema,
  SYSTEM_TAG,
} from '../shared/schemas.js';
import { refuseOwnReset, USERS_MENU as MENU, UsersService } from './service.js';
import {
  CreateUserBody,
  ResetPasswordBody,
  SetRolesBody,
  UpdateUserBody,
  UserExportQuery,
  UserFilter,
  UnlockResultSchema,
  UserSchema,
  type UserDto,
} from './schemas.js';

const tags = [SYSTEM_TAG];

const CSV_COLUMNS: CsvColumn<UserDto>[] = [
  { header: '用户编号', value: (u) => u.id },
  { header: '用户名', value: (u) => u.username },
  { header: '昵称', value: (u) => u.nickname },
  { header: '状态', value: (u) => zhName(STATUS_NAMES, u.status) },
  { header: '角色', value: (u) => u.roles.map((r) => r.name).join('、') },
  { header: '两步验证', value: (u) => yesNo(u.totpEnabled) },
  { header: '创建时间', value: (u) => exportTime(u.createdAt) },
  { header: '更新时间', value: (u) => exportTime(u.updatedAt) },
];

/** /api/users — user administration (menu system:user). */
export default async function usersRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const users = new UsersService(app.db, app.authService);

  app.get(
    '/',
    {
      config: { auth: { menu: MENU, bits: ['SEARCH'] } },
      schema: {
        tags,
        summary: '列出用户 List users',
        description: '`keyword` matches username or nickname (case-insensitive substring); newest first.',
        querystring: UserFilter,
        response: { 200: PagedSchema(UserSchema) },
      },
    },
    async (req) => {
      const q = req.query;
      return { data: { ...(await users.list(actorOf(req), q)), page: q.page, pageSize: q.pageSize } };
    },
  );

  app.get(
    '/export',
    {
      config: { auth: { menu: MENU, bits: ['EXPORT'] } },
      schema: {
        tags,
        summary: '导出用户（CSV） Export users as CSV',
        description:
          'Same filters as the list, without paging; at most 50 000 rows (`X-Export-Truncated: true` when cut). Roles are listed by name.',
        querystring: UserExportQuery,
        response: { 200: CsvResponse },
      },
    },
    async (req, reply) => {
      const { items, truncated } = await users.exportRows(req.query);
      await app.audit(req, 'user.export', 'user', null, { count: items.length, filter: req.query });
      return sendCsv(reply, { title: '用户', ascii: 'users' }, CSV_COLUMNS, items, truncated);
    },
  );

  app.get(
    '/:id',
    {
      config: { auth: { menu: MENU, bits: ['SEARCH'] } },
      schema: { tags, summary: '查看用户 Get a user', params: IdParams, response: { 200: data(UserSchema) } },
    },
    async (req) => ({ data: await users.get(actorOf(req), req.params.id) }),
  );

  app.post(
    '/',
    {
      config: { auth: { menu: MENU, bits: ['ADD'] } },
      schema: {
        tags,
        summary: '新增用户 Create a user',
        description:
          'A password shorter than PASSWORD_MIN_LENGTH or weaker than PASSWORD_MIN_SCORE answers 400. A taken username answers 409 CONFLICT. `roleIds` needs GRANT on system:user as well as ADD, and every role must be covered by your own masks (403 PRIVILEGE_ESCALATION otherwise); giving the super_admin role requires a super administrator (403 FORBIDDEN).',
        body: CreateUserBody,
        response: { 201: data(UserSchema) },
      },
    },
    async (req, reply) => {
      await assertPasswordPolicy('password', req.body.password, app.config.passwordPolicy);
      return reply.code(201).send({ data: await users.create(actorOf(req), req.body) });
    },
  );

  app.patch(
    '/:id',
    {
      config: { auth: { menu: MENU, bits: ['EDIT'] } },
      schema: {
        tags,
        summary: '编辑用户（用户名、昵称、状态） Edit a user (username, nickname, status)',
        description:
          'Disabling a user ends all of their sessions at once (token_version + 1, refresh tokens revoked). You cannot disable yourself (409 CONFLICT), ' +
          'nor the last active super administrator (409 SUPER_ADMIN_PROTECTED). Only a super administrator may edit a super administrator (403 FORBIDDEN); ' +
          'below that, a user holding anything you lack (through any of its roles, enabled or not) answers 403 PRIVILEGE_ESCALATION.',
        params: IdParams,
        body: UpdateUserBody,
        response: { 200: data(UserSchema) },
      },
    },
    async (req) => ({ data: await users.update(actorOf(req), req.params.id, req.body) }),
  );

  app.delete(
    '/:id',
    {
      config: { auth: { menu: MENU, bits: ['DELETE'] } },
      schema: {
        tags,
        summary: '删除用户 Delete a user',
        description:
          'You cannot delete yourself (409 CONFLICT) nor the last active super administrator (409 SUPER_ADMIN_PROTECTED); a user holding anything you lack answers 403 PRIVILEGE_ESCALATION.',
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      await users.delete(actorOf(req), [req.params.id], 'user.delete');
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/batch-delete',
    {
      config: { auth: { menu: MENU, bits: ['BATCH_DELETE'] } },
      schema: {
        tags,
        summary: '批量删除用户 Delete several users',
        description:
          'All or nothing: if any rule refuses one of them (yourself, the last super administrators, a user holding anything you lack), none is deleted. Unknown ids are ignored.',
        body: IdsBody,
        response: { 200: DeletedSchema },
      },
    },
    async (req) => ({ data: { deleted: await users.delete(actorOf(req), req.body.ids, 'user.batch-delete') } }),
  );

  app.post(
    '/:id/reset-password',
    {
      config: { auth: { menu: MENU, bits: ['RESET_PASSWORD'] } },
      schema: {
        tags,
        summary: '重置用户密码 Set a new password for a user',
        description:
          'Ends every session of that user (token_version + 1); they must choose their own password at the next sign-in (mustChangePassword). The password policy applies (400). The password is never written to the audit log. A user holding anything you lack answers 403 PRIVILEGE_ESCALATION, and so does your own account: change your own password with PUT /api/auth/password, which asks for the current one.',
        params: IdParams,
        body: ResetPasswordBody,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      // Refused before the policy check: advice on a password that cannot be set this way would mislead.
      refuseOwnReset(actorOf(req), req.params.id);
      await assertPasswordPolicy('password', req.body.password, app.config.passwordPolicy);
      await users.resetPassword(actorOf(req), req.params.id, req.body.password);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/:id/unlock',
    {
      config: { auth: { menu: MENU, bits: ['RESET'] } },
      schema: {
        tags,
        summary: '解锁用户 Clear a user’s sign-in throttling',
        description:
          'Clears every sign-in failure counted for the username (from every address) and the lock of its second step (too many wrong TOTP or recovery codes), as `npm run admin -- unlock` does. `cleared` is how many counters were removed (0: the user was not held back). Guarded by RESET on the users menu. Another user holding anything you lack answers 403 PRIVILEGE_ESCALATION; a super administrator’s account, 403 unless you are one.',
        params: IdParams,
        response: { 200: data(UnlockResultSchema) },
      },
    },
    async (req) => ({ data: await users.unlock(actorOf(req), req.params.id) }),
  );

  app.post(
    '/:id/reset-totp',
    {
      config: { auth: { menu: MENU, bits: ['RESET_PASSWORD'] } },
      schema: {
        tags,
        summary: '重置两步验证 Remove a user’s TOTP and passkeys',
        description:
          'Deletes the user’s TOTP secret, recovery codes and every passkey, for a user who lost the authenticator or a device: they sign in with the password alone and may enrol again (a role that requires TOTP asks them to at once). Every session of the user ends (token_version + 1, reason FORCED_LOGOUT): the authenticator is lost or in the wrong hands, and a session signed in with it may be on that very device. Guarded by RESET_PASSWORD (a credential reset) on the users menu. 409 CONFLICT when the user has neither TOTP nor a passkey; your own account is refused (403 PRIVILEGE_ESCALATION: use POST /api/auth/totp/disable, which asks for proof); a user holding anything you lack, 403 PRIVILEGE_ESCALATION; a super administrator’s account, 403 unless you are one.',
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      await users.resetTotp(actorOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/:id/roles',
    {
      config: { auth: { menu: MENU, bits: ['GRANT'] } },
      schema: {
        tags,
        summary: "设置用户的角色 Replace a user's roles",
        description:
          'Applies from the user’s next request. Granting or revoking super_admin requires a super administrator; the last active super administrator cannot lose the role (409 SUPER_ADMIN_PROTECTED). ' +
          'Below super administrators: not your own roles, only for a user you cover, and only roles you cover (403 PRIVILEGE_ESCALATION).',
        params: IdParams,
        body: SetRolesBody,
        response: { 200: data(UserSchema) },
      },
    },
    async (req) => ({ data: await users.setRoles(actorOf(req), req.params.id, req.body.roleIds) }),
  );
}
