import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import type { RouteOptions } from 'fastify';
import { LOOKUP_GROUPS } from './lookup-platform.js';
import { allowInlineScriptsByHash } from './csp-hashes.js';
import { registerApiReference } from './api-reference.js';
import { readDataJson } from '../data-files.js';
import { DROP_IN_TAG } from '../drop-in/index.js';

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
    content['application/json'] = { schema: envelope, ...(example !== undefined ? { example } : {}) };
  }
  for (const m of media)
    content[m] = { schema: m.startsWith('image/png') ? { type: 'string', format: 'binary' } : { type: 'string' } };
  return { schema: { ...schema, response: { ...response, 200: { description: '成功 Success', content } } }, url };
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
 * serialisation and documentation); /docs renders it with Scalar, served from this service (no CDN).
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
            'Two faces of one service. **Admin API**: own authentication (short-lived access JWT, rotating single-use refresh token, per-user token_version) and a bit-mask permission model; ' +
            'each guarded operation carries `x-permission` = `{menu, bits}` (or `authenticated` / `public`). Errors are `{code, message}`.\n\n' +
            '**Public lookup API**: read-only GET endpoints, no authentication, every answer in the envelope `{code, msg, data, timestamp}`. ' +
            'Success is HTTP 200 with msg `请求成功`; a bad parameter or a failure is HTTP 500 with a msg naming the parameter, what was given and what is allowed; an unknown path is 404 and a rate-limited call 429 (with Retry-After), both in the same envelope. ' +
            'Deterministic answers carry Cache-Control and ETag and honour If-None-Match. Nothing calls a third-party service at request time.\n\n' +
            '**参数约定 Parameters.** 可选参数留空（`?date=`）等于未传；本接口不认识的参数会报错并列出可用参数（防缓存参数 `_`、`t` 除外，会被忽略）；数字只接受十进制写法（`0x7E9`、`1e1`、`02025` 会被拒绝）。' +
            'An empty optional parameter means "not given"; an unknown parameter is an error naming it and the accepted ones (the cache-busters `_` and `t` are ignored); numbers must be written in decimal.',
        },
        tags: [
          { name: '认证 Auth', description: 'Sign-in, refresh, sign-out, identity' },
          { name: '系统管理 System', description: 'Users, roles, menus and the audit log' },
          { name: '内容管理 Content', description: 'The text libraries and holiday schedules behind the public API' },
          { name: '监控 Monitor', description: 'Public API usage' },
          DROP_IN_TAG,
          ...Object.values(LOOKUP_GROUPS),
        ],
        components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      },
      transform: documentLookupResponse as never,
      transformObject: examplesIntoSchemas as never,
      refResolver: {
        buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
      },
    });
    app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    // Scalar's page starts itself with an inline script: allowed by its hash, in this scope only.
    await app.register(async (docs) => {
      docs.addHook('onSend', allowInlineScriptsByHash());
      registerApiReference(docs, { prefix: '/docs', specUrl: '/openapi.json', title: 'tianji API 参考文档' });
    });
  },
  { name: 'openapi' },
);
