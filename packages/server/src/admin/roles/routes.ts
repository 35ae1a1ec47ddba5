import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { data } from '../auth/schemas.js';
import { actorOf } from '../shared/actor.js';
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
import {
  CreateRoleBody,
  RoleDetailSchema,
  RoleExportQuery,
  RoleFilter,
  RoleSchema,
  SetGrantsBody,
  UpdateRoleBody,
} from './schemas.js';
import { RolesService, type RoleDto } from './service.js';
import { MENUS } from '../../catalogue/index.js';

const MENU = MENUS.roles.code;
const tags = [SYSTEM_TAG];

const CSV_COLUMNS: CsvColumn<RoleDto>[] = [
  { header: '角色编号', value: (r) => r.id },
  { header: '编码', value: (r) => r.code },
  { header: '名称', value: (r) => r.name },
  { header: '描述', value: (r) => r.description },
  { header: '状态', value: (r) => zhName(STATUS_NAMES, r.status) },
  { header: '排序', value: (r) => r.sort },
  { header: '要求两步验证', value: (r) => yesNo(r.requireTotp) },
  { header: '创建时间', value: (r) => exportTime(r.createdAt) },
  { header: '更新时间', value: (r) => exportTime(r.updatedAt) },
];

/** /api/roles — role administration and grants (menu system:role). */
export default async function rolesRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const roles = new RolesService(app.db);

  app.get(
    '/',
    {
      config: { auth: { menu: MENU, bits: ['SEARCH'] } },
      schema: {
        tags,
        summary: '列出角色 List roles',
        description: '`keyword` matches code or name (case-insensitive substring); ordered by sort, then code.',
        querystring: RoleFilter,
        response: { 200: PagedSchema(RoleSchema) },
      },
    },
    async (req) => ({
      data: { ...(await roles.list(actorOf(req), req.query)), page: req.query.page, pageSize: req.query.pageSize },
    }),
  );

  app.get(
    '/export',
    {
      config: { auth: { menu: MENU, bits: ['EXPORT'] } },
      schema: {
        tags,
        summary: '导出角色（CSV） Export roles as CSV',
        description: 'Same filters as the list, without paging; at most 50 000 rows.',
        querystring: RoleExportQuery,
        response: { 200: CsvResponse },
      },
    },
    async (req, reply) => {
      const { items, truncated } = await roles.exportRows(req.query);
      await app.audit(req, 'role.export', 'role', null, { count: items.length, filter: req.query });
      return sendCsv(reply, { title: '角色', ascii: 'roles' }, CSV_COLUMNS, items, truncated);
    },
  );

  app.get(
    '/:id',
    {
      config: { auth: { menu: MENU, bits: ['SEARCH'] } },
      schema: {
        tags,
        summary: '查看角色及其菜单授权 Get a role with its menu grants',
        description: 'Grant masks are normalised: the super administrator’s all-ones mask reads 9223372036854775807.',
        params: IdParams,
        response: { 200: data(RoleDetailSchema) },
      },
    },
    async (req) => ({ data: await roles.get(actorOf(req), req.params.id) }),
  );

  app.post(
    '/',
    {
      config: { auth: { menu: MENU, bits: ['ADD'] } },
      schema: {
        tags,
        summary: '新增角色 Create a role',
        description:
          'A taken code, or a name another role has (compared without case, width or whitespace), answers 409 CONFLICT naming it. A new role has no grants.',
        body: CreateRoleBody,
        response: { 201: data(RoleSchema) },
      },
    },
    async (req, reply) => reply.code(201).send({ data: await roles.create(actorOf(req), req.body) }),
  );

  app.patch(
    '/:id',
    {
      config: { auth: { menu: MENU, bits: ['EDIT'] } },
      schema: {
        tags,
        summary: '编辑角色 Edit a role',
        description:
          'A disabled role contributes no permission from its holders’ next request. The super administrator role cannot be disabled or renamed in code (409 SUPER_ADMIN_PROTECTED), and only a super administrator edits it. ' +
          'Switching a role on or off, or changing its name or code, needs it covered by your own masks and not held by you (403 PRIVILEGE_ESCALATION). A name another role has answers 409 CONFLICT.',
        params: IdParams,
        body: UpdateRoleBody,
        response: { 200: data(RoleSchema) },
      },
    },
    async (req) => ({ data: await roles.update(actorOf(req), req.params.id, req.body) }),
  );

  app.delete(
    '/:id',
    {
      config: { auth: { menu: MENU, bits: ['DELETE'] } },
      schema: {
        tags,
        summary: '删除角色 Delete a role',
        description:
          'Removes its user assignments and grants. The super administrator role cannot be deleted (409 SUPER_ADMIN_PROTECTED). ' +
          'As for disabling it, the role must be covered by your own masks and not held by you, and a role with requireTotp is deleted by a super administrator only (403 PRIVILEGE_ESCALATION).',
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      await roles.delete(actorOf(req), [req.params.id], 'role.delete');
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/batch-delete',
    {
      config: { auth: { menu: MENU, bits: ['BATCH_DELETE'] } },
      schema: {
        tags,
        summary: '批量删除角色 Delete several roles',
        description:
          'All or nothing: a batch holding the super administrator role is refused (409 SUPER_ADMIN_PROTECTED), and one holding a role you may not delete alone (403 PRIVILEGE_ESCALATION). Unknown ids are ignored.',
        body: IdsBody,
        response: { 200: DeletedSchema },
      },
    },
    async (req) => ({ data: { deleted: await roles.delete(actorOf(req), req.body.ids, 'role.batch-delete') } }),
  );

  app.put(
    '/:id/menus',
    {
      config: { auth: { menu: MENU, bits: ['GRANT'] } },
      schema: {
        tags,
        summary: '设置角色的菜单授权 Replace the menu grants of a role',
        description:
          'Each grant is `{menuId, bits}`; bits is an OR of the ten permission points (0–1023); 0 keeps the menu visible with every action hidden. ' +
          'The all-ones mask is reserved for the super administrator role, whose grants cannot be changed (409 SUPER_ADMIN_PROTECTED). An unknown menuId answers 400 naming it. ' +
          'Below super administrators you grant only bits you hold (403 PRIVILEGE_ESCALATION naming the rest), bits the role has that you lack stay as they are, and never on a role you hold.',
        params: IdParams,
        body: SetGrantsBody,
        response: { 200: data(RoleDetailSchema) },
      },
    },
    async (req) => ({ data: await roles.setGrants(actorOf(req), req.params.id, req.body.grants) }),
  );
}
