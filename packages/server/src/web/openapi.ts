import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import type { RouteOptions } from 'fastify';
import { LOOKUP_GROUPS } from '../catalogue/lookup-groups.js';
import { allowInlineScriptsByHash } from './csp-hashes.js';
import { registerApiReference } from './api-reference.js';
import { compressedBytes, sendCompressed } from './compressed-files.js';
import { readDataJson } from '../data-files.js';
import { DROP_IN_TAG } from '../public/drop-in/index.js';

/** Real answers of the public JSON endpoints (scripts/build-openapi-examples.ts), keyed by path. */
const EXAMPLES = readDataJson<Record<string, { query: string; response: unknown }>>('openapi-examples.json') ?? {};

type Schema = Record<string, unknown>;

/**
 * A public route's 200 answer as documented: the JSON envelope with a whole-response example, and the other media
 * types the route answers (images, text, scripts). Documentation only: validation and serialisation are unchanged.
 */
function documentLookupResponse({ schema, url, route }: { schema: Schema; url: string; route: RouteOptions }): {
  schema: Schema;
  url: string;
} {
  const response = schema?.response as Record<string, Schema> | undefined;
  if (route.config?.area !== 'lookup' || !response?.[200]) return { schema, url };
  const envelope = response[200];
  const media = route.config.lookupMedia ?? [];
  const dataIsNull =
    ((envelope.properties as Record<string, Schema> | undefined)?.data?.type as string | undefined) === 'null';
  const content: Record<string, Schema> = {};
  if (!(dataIsNull && media.length > 0)) {
    const example = EXAMPLES[url]?.response;
    content['application/json'] = { schema: withoutUnsafe(envelope), ...(example !== undefined ? { example } : {}) };
  }
  for (const m of media)
    content[m] = { schema: m.startsWith('image/png') ? { type: 'string', format: 'binary' } : { type: 'string' } };
  return { schema: { ...schema, response: { ...response, 200: { description: '成功 Success', content } } }, url };
}

/**
 * A copy of `schema` without fast-json-stringify's `format: 'unsafe'` (AsciiText in public/shared/schemas.ts): it
 * tells the serializer a field needs no escaping, and means nothing to a reader of the document. A copy, because the
 * route's own schema is still to be compiled by its serializer (on its first request).
 */
function withoutUnsafe(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutUnsafe);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema)) if (!(k === 'format' && v === 'unsafe')) out[k] = withoutUnsafe(v);
  return out;
}

interface DocParameter {
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
  schema?: { examples?: unknown[] };
}

/**
 * @fastify/swagger moves a query parameter's examples out of its schema onto the parameter, but Scalar's request
 * example and copied curl command at /docs fill a parameter from its schema only (its default, else its examples):
 * every string parameter was shown empty (`?text=`, `?id=`) and every number at its minimum. The parameter's first
 * example goes back into its schema.
 */
function examplesIntoSchemas(doc: { openapiObject?: { paths?: Record<string, Record<string, unknown>> } }) {
  const openapi = doc.openapiObject ?? {};
  for (const item of Object.values(openapi.paths ?? {}))
    for (const op of Object.values(item) as Array<{ parameters?: DocParameter[] }>)
      for (const p of op?.parameters ?? []) {
        const first = p.examples ? Object.values(p.examples)[0]?.value : p.example;
        if (first !== undefined && p.schema && p.schema.examples === undefined) p.schema.examples = [first];
      }
  return openapi;
}

/**
 * The OpenAPI 3.1 document at /openapi.json is generated from the route schemas (one source for validation,
 * serialisation and documentation); the documentation site renders it at /docs/api/ (docs/.vitepress/theme/ApiReference.vue),
 * and Scalar's interactive console at /docs/api/scalar/, served from this service (no CDN).
 */
export default fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'tianji',
          version: '0.1.0',
          description:
            '一个服务的两面。**管理 API**：自己的认证（短期访问 JWT、每次使用即轮换的一次性刷新令牌、每个用户的 token_version）与位掩码权限模型；' +
            '每个受保护的操作带有 `x-permission` = `{menu, bits}`（或 `authenticated` / `public`）。错误为 `{code, message}`。\n\n' +
            '**公共查询 API**：只读的 GET 接口，无需认证，回答都在信封 `{code, msg, data, timestamp}` 里。成功为 HTTP 200、msg `请求成功`；' +
            '参数错误或失败为 HTTP 500，msg 写明参数、收到的值与允许的范围；未知路径 404，超出频率限制 429（带 Retry-After），同一信封。' +
            '确定性的回答带 Cache-Control 与 ETag，支持 If-None-Match。请求时不调用任何第三方服务。\n\n' +
            '**接口密钥 API keys.** 匿名调用按 IP 限流；带上运营者发放的密钥（请求头 `X-API-Key: tj_…`，或 `Authorization: Bearer tj_…`）则按密钥计配额与用量。' +
            '错误、吊销或过期的密钥一律 401「接口密钥无效或已失效」（不会降级为匿名）；分组、来源或地址不允许 403；配额用完 429（带 Retry-After）。' +
            '每个回答带 `RateLimit-Limit`、`RateLimit-Remaining`、`RateLimit-Reset`。**没有 `key` 查询参数**：URL 会写进访问日志、代理日志、浏览器历史和 Referer，密钥只放在请求头里。' +
            'Send a key in a header only: there is no `key` query parameter, because URLs end up in access logs, proxies, browser history and Referer headers.\n\n' +
            '**参数约定 Parameters.** 可选参数留空（`?date=`）等于未传；本接口不认识的参数会报错并列出可用参数（防缓存参数 `_`、`t` 除外，会被忽略）；数字只接受十进制写法（`0x7E9`、`1e1`、`02025` 会被拒绝）。\n\n' +
            'Two faces of one service: an admin API with its own authentication and a bit-mask permission model, and a public lookup API of read-only GET endpoints in one envelope. ' +
            '指南 Guides: [/docs/](/docs/).',
        },
        // The public groups first: most readers come for them; the admin API follows.
        tags: [
          ...Object.values(LOOKUP_GROUPS),
          DROP_IN_TAG,
          { name: '认证 Auth', description: '登录、刷新、退出、当前身份。Sign-in, refresh, sign-out, identity' },
          {
            name: '系统管理 System',
            description: '用户、角色、菜单、会话与审计日志。Users, roles, menus, sessions and the audit log',
          },
          {
            name: '内容管理 Content',
            description:
              '公共接口背后的文本库与节假日安排。The text libraries and holiday schedules behind the public API',
          },
          { name: '监控 Monitor', description: '公共接口调用量。Public API usage' },
          {
            name: '接口密钥 API keys',
            description:
              '公共接口调用方的密钥、配额与必须使用密钥的分组。Keys, quotas and key-only groups of public callers',
          },
        ],
        components: {
          securitySchemes: {
            bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
            apiKey: {
              type: 'apiKey',
              in: 'header',
              name: 'X-API-Key',
              description:
                '可选的接口密钥 tj_…（也可用 Authorization: Bearer tj_…）。Optional API key of a public caller; never in the query string (URLs are logged).',
            },
          },
        },
      },
      transform: documentLookupResponse as never,
      transformObject: examplesIntoSchemas as never,
      refResolver: {
        buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
      },
    });
    // The document is fixed once the routes are: made, compressed (0.39 MB → ~60 KB with brotli) and hashed once.
    const document = compressedBytes('openapi.json', () => Buffer.from(JSON.stringify(app.swagger())));
    app.get('/openapi.json', { schema: { hide: true } }, (req, reply) =>
      sendCompressed(req, reply, document, { type: 'application/json; charset=utf-8', cacheControl: 'no-cache' }),
    );
    // Scalar's page starts itself with an inline script: allowed by its hash, in this scope only.
    await app.register(async (docs) => {
      docs.addHook('onSend', allowInlineScriptsByHash());
      registerApiReference(docs, {
        prefix: '/docs/api/scalar',
        specUrl: '/openapi.json',
        title: 'tianji API 参考文档',
      });
    });
  },
  { name: 'openapi' },
);
