import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { data } from '../auth/schemas.js';
import { actorOf } from '../shared/actor.js';
import { IdParams, NoContent, SYSTEM_TAG } from '../shared/schemas.js';
import { CreateMenuBody, DeleteMenuQuery, MenuTreeNodeSchema, UpdateMenuBody } from './schemas.js';
import { MenusService } from './service.js';
import { MENUS } from '../../catalogue/index.js';

const MENU = MENUS.menus.code;
const tags = [SYSTEM_TAG];
const NodeResponse = data(MenuTreeNodeSchema);

/** /api/menus — the menu tree (menu system:menu). */
export default async function menusRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const menus = new MenusService(app.db, app.config.menuEmbedOrigins);

  app.get(
    '/',
    {
      config: { auth: { menu: MENU, bits: ['SEARCH'] } },
      schema: {
        tags,
        summary: '完整菜单树 The whole menu tree',
        description: 'Every menu, nested; siblings ordered by sort, then code.',
        response: { 200: data(Type.Array(MenuTreeNodeSchema)) },
      },
    },
    async () => ({ data: await menus.tree() }),
  );

  app.get(
    '/:id',
    {
      config: { auth: { menu: MENU, bits: ['SEARCH'] } },
      schema: {
        tags,
        summary: '查看菜单及其子树 A menu with its subtree',
        params: IdParams,
        response: { 200: NodeResponse },
      },
    },
    async (req) => ({ data: await menus.get(req.params.id) }),
  );

  app.post(
    '/',
    {
      config: { auth: { menu: MENU, bits: ['ADD'] } },
      schema: {
        tags,
        summary: '新增顶级菜单 Create a root menu',
        description:
          'The super administrator role is granted every permission on it; other roles see it once granted (PUT /api/roles/{id}/menus). A taken code answers 409.',
        body: CreateMenuBody,
        response: { 201: NodeResponse },
      },
    },
    async (req, reply) => reply.code(201).send({ data: await menus.create(actorOf(req), null, req.body) }),
  );

  app.post(
    '/:id/children',
    {
      config: { auth: { menu: MENU, bits: ['ADD_CHILD'] } },
      schema: {
        tags,
        summary: '新增下级菜单 Create a child menu',
        description: 'Like creating a root menu, under the menu `id` (404 if it does not exist).',
        params: IdParams,
        body: CreateMenuBody,
        response: { 201: NodeResponse },
      },
    },
    async (req, reply) => reply.code(201).send({ data: await menus.create(actorOf(req), req.params.id, req.body) }),
  );

  app.patch(
    '/:id',
    {
      config: { auth: { menu: MENU, bits: ['EDIT'] } },
      schema: {
        tags,
        summary: '编辑或移动菜单 Edit or move a menu',
        description:
          '`parentId` moves the menu (null: to the root); a menu cannot move under itself or its own descendants (400). Built-in menus keep their code (409).',
        params: IdParams,
        body: UpdateMenuBody,
        response: { 200: NodeResponse },
      },
    },
    async (req) => ({ data: await menus.update(actorOf(req), req.params.id, req.body) }),
  );

  app.delete(
    '/:id',
    {
      config: { auth: { menu: MENU, bits: ['DELETE'] } },
      schema: {
        tags,
        summary: '删除菜单 Delete a menu',
        description:
          'A menu with children answers 409 CONFLICT unless `cascade=true`, which deletes the whole subtree. Grants on deleted menus go with them, so below super administrators every bit a role is granted on them must be yours (403 PRIVILEGE_ESCALATION). Built-in menus cannot be deleted (409).',
        params: IdParams,
        querystring: DeleteMenuQuery,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      await menus.delete(actorOf(req), req.params.id, req.query.cascade);
      return reply.code(204).send(null);
    },
  );
}
