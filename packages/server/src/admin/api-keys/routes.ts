import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { data } from '../auth/schemas.js';
import { actorOf } from '../shared/actor.js';
import { sendCsv, type CsvColumn } from '../../shared/csv.js';
import { exportTime, zhName } from '../../shared/export-format.js';
import { CsvResponse, DeletedSchema, IdParams, IdsBody, NoContent, PagedSchema } from '../shared/schemas.js';
import { LOOKUP_GROUPS, type LookupGroup } from '../../catalogue/lookup-groups.js';
import {
  API_KEY_STATUS_NAMES,
  API_KEYS_TAG,
  ApiKeyExportQuery,
  ApiKeyFilter,
  ApiKeySchema,
  CreateApiKeyBody,
  KEY_READERS,
  PolicyBody,
  PolicySchema,
  RotateBody,
  UpdateApiKeyBody,
} from './schemas.js';
import { ApiKeysService, type ApiKeyDto } from './service.js';
import { MENUS } from '../../catalogue/index.js';

const MENU = MENUS.apiKeys.code;
const tags = [API_KEYS_TAG];

const joined = (xs: string[] | null) => (xs === null ? '不限' : xs.join(' '));
/** A group's Chinese name: LOOKUP_GROUPS names read `每日推荐 Daily`. */
const groupName = (g: string) =>
  Object.hasOwn(LOOKUP_GROUPS, g) ? LOOKUP_GROUPS[g as LookupGroup].name.split(' ')[0] : g;
const CSV_COLUMNS: CsvColumn<ApiKeyDto>[] = [
  { header: '密钥编号', value: (k) => k.id },
  { header: '名称', value: (k) => k.name },
  { header: '备注', value: (k) => k.note ?? '' },
  { header: '密钥前缀', value: (k) => `tj_${k.prefix}…` },
  { header: '状态', value: (k) => zhName(API_KEY_STATUS_NAMES, k.status) },
  { header: '创建人', value: (k) => k.createdBy?.username ?? '' },
  { header: '创建时间', value: (k) => exportTime(k.createdAt) },
  { header: '最近使用', value: (k) => exportTime(k.lastUsedAt) },
  { header: '过期时间', value: (k) => exportTime(k.expiresAt) },
  { header: '吊销时间', value: (k) => exportTime(k.revokedAt) },
  { header: '每分钟上限', value: (k) => k.perMinute ?? '不限' },
  { header: '每天上限', value: (k) => k.perDay ?? '不限' },
  { header: '接口分组', value: (k) => (k.groups ? k.groups.map(groupName).join('、') : '全部') },
  { header: '允许的来源', value: (k) => joined(k.origins) },
  { header: '允许的地址', value: (k) => joined(k.addresses) },
];

const WithSecret = Type.Object({
  key: ApiKeySchema,
  secret: Type.String({
    description:
      'The secret (tj_ + 43 characters), shown this once: the server keeps only its SHA-256. Callers send it as X-API-Key (or Authorization: Bearer)',
  }),
});

const EVERY_INSTANCE =
  'Other instances apply the change within milliseconds with REDIS_URL, within about a second (under 2 s) without it.';

const NO_SECRET_NOTE =
  'The secret is never stored, listed, logged or written to the audit log: only its SHA-256 and its first 8 characters (prefix).';

/** /api/admin/api-keys — API keys of public callers (menu monitor:api-key 接口密钥). */
export default async function apiKeysRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const keys = new ApiKeysService(app.db, app.config.apiKeyRate, () => app.apiKeys.changed());

  app.get(
    '/',
    {
      config: { auth: KEY_READERS },
      schema: {
        tags,
        summary: '列出接口密钥 List API keys',
        description: `\`keyword\` matches name, note or prefix (case-insensitive substring); newest first. ${NO_SECRET_NOTE}`,
        querystring: ApiKeyFilter,
        response: { 200: PagedSchema(ApiKeySchema) },
      },
    },
    async (req) => ({
      data: { ...(await keys.list(req.query)), page: req.query.page, pageSize: req.query.pageSize },
    }),
  );

  app.get(
    '/export',
    {
      config: { auth: { menu: MENU, bits: ['EXPORT'] } },
      schema: {
        tags,
        summary: '导出接口密钥（CSV） Export API keys as CSV',
        description: `Same filters as the list, without paging; at most 50 000 rows. ${NO_SECRET_NOTE}`,
        querystring: ApiKeyExportQuery,
        response: { 200: CsvResponse },
      },
    },
    async (req, reply) => {
      const { items, truncated } = await keys.exportRows(req.query);
      await app.audit(req, 'api-key.export', 'api-key', null, { count: items.length, filter: req.query });
      return sendCsv(reply, { title: '接口密钥', ascii: 'api-keys' }, CSV_COLUMNS, items, truncated);
    },
  );

  app.get(
    '/policy',
    {
      config: { auth: KEY_READERS },
      schema: {
        tags,
        summary: '查看必须使用密钥的接口分组 Groups that require an API key',
        response: { 200: data(PolicySchema) },
      },
    },
    async () => ({ data: await keys.policy() }),
  );

  app.put(
    '/policy',
    {
      config: { auth: { menu: MENU, bits: ['EDIT'] } },
      schema: {
        tags,
        summary: '设置必须使用密钥的接口分组 Require an API key for endpoint groups',
        description: `Anonymous calls to these groups answer 401 API_KEY_REQUIRED. ${EVERY_INSTANCE}`,
        body: PolicyBody,
        response: { 200: data(PolicySchema) },
      },
    },
    async (req) => ({ data: await keys.setPolicy(actorOf(req), req.body.requireKeyGroups) }),
  );

  app.get(
    '/:id',
    {
      config: { auth: KEY_READERS },
      schema: {
        tags,
        summary: '查看接口密钥 Get an API key',
        params: IdParams,
        response: { 200: data(ApiKeySchema) },
      },
    },
    async (req) => ({ data: await keys.get(req.params.id) }),
  );

  app.post(
    '/',
    {
      config: { auth: { menu: MENU, bits: ['ADD'] } },
      schema: {
        tags,
        summary: '新增接口密钥 Create an API key',
        description:
          'Answers the key and its secret, which is shown this once. perMinute/perDay null use the server defaults; below super administrators they may not exceed them (403 PRIVILEGE_ESCALATION). ' +
          NO_SECRET_NOTE,
        body: CreateApiKeyBody,
        response: { 201: data(WithSecret) },
      },
    },
    async (req, reply) => reply.code(201).send({ data: await keys.create(actorOf(req), req.body) }),
  );

  app.patch(
    '/:id',
    {
      config: { auth: { menu: MENU, bits: ['EDIT'] } },
      schema: {
        tags,
        summary: '编辑接口密钥 Edit an API key',
        description: `${EVERY_INSTANCE} Limits above the server defaults need a super administrator (403 PRIVILEGE_ESCALATION), and so does lifting or widening the groups, addresses, origins or expiry of a key whose limits are above them; renaming and narrowing stay open.`,
        params: IdParams,
        body: UpdateApiKeyBody,
        response: { 200: data(ApiKeySchema) },
      },
    },
    async (req) => ({ data: await keys.update(actorOf(req), req.params.id, req.body) }),
  );

  app.delete(
    '/:id',
    {
      config: { auth: { menu: MENU, bits: ['DELETE'] } },
      schema: {
        tags,
        summary: '吊销接口密钥 Revoke an API key',
        description: `The key is refused from the next request. ${EVERY_INSTANCE} The row stays, with status revoked, for the audit trail and usage.`,
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      await keys.revoke(actorOf(req), [req.params.id], 'api-key.revoke');
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/batch-delete',
    {
      config: { auth: { menu: MENU, bits: ['BATCH_DELETE'] } },
      schema: {
        tags,
        summary: '批量吊销接口密钥 Revoke several API keys',
        description:
          'As the batch deletes of other menus; the keys are revoked (rows kept). `deleted` counts keys revoked by this call; unknown or already revoked ids are ignored.',
        body: IdsBody,
        response: { 200: DeletedSchema },
      },
    },
    async (req) => ({
      data: { deleted: (await keys.revoke(actorOf(req), req.body.ids, 'api-key.batch-revoke')).revoked },
    }),
  );

  app.post(
    '/:id/rotate',
    {
      config: { auth: { menu: MENU, bits: ['RESET'] } },
      schema: {
        tags,
        summary: '轮换接口密钥 Rotate an API key',
        description:
          'Issues a new secret (shown this once); the previous one keeps working for graceMinutes (graceUntil), then is refused. A revoked key cannot be rotated (409 CONFLICT). A key whose limits are above the server defaults is rotated only by a super administrator (403 PRIVILEGE_ESCALATION): the new secret would give the caller more than they may grant.',
        params: IdParams,
        body: RotateBody,
        response: { 200: data(WithSecret) },
      },
    },
    async (req) => ({ data: await keys.rotate(actorOf(req), req.params.id, req.body.graceMinutes) }),
  );
}
