import { Type } from '@sinclair/typebox';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HITOKOTO_CATEGORIES } from '../shared/hitokoto.js';
import { V1Failure, pickV1, readV1Query, renderV1, renderV1Failure, type V1Reply } from './hitokoto-v1.js';

/** The drop-ins' page in the API reference (web/openapi.ts lists it). */
export const DROP_IN_TAG = {
  name: 'hitokoto.cn 兼容 Drop-in',
  description:
    'hitokoto.cn 的 v1 接口原样：客户端只换域名 hitokoto.cn’s v1 root as it is: clients change only the host',
};

const categories = Object.entries(HITOKOTO_CATEGORIES)
  .map(([l, n]) => `${l} ${n}`)
  .join(', ');

const V1SentenceSchema = Type.Object({
  id: Type.Integer({ minimum: 1, description: 'Positive 31-bit number derived from the uuid', examples: [975829817] }),
  uuid: Type.String({ format: 'uuid', examples: ['a3fece9d-92ff-4793-aa7f-59271aa74c4d'] }),
  hitokoto: Type.String({ examples: ['学而不思则罔，思而不学则殆。'] }),
  type: Type.String({ description: `Category letter: ${categories}`, examples: ['k'] }),
  from: Type.String({ examples: ['论语·为政'] }),
  from_who: Type.Union([Type.String(), Type.Null()], { examples: ['孔子'] }),
  creator: Type.String({ examples: ['tianji'] }),
  creator_uid: Type.Integer({ description: 'Always 0: no user of this service submitted it', examples: [0] }),
  reviewer: Type.Integer({ description: 'Always 0', examples: [0] }),
  commit_from: Type.String({ examples: ['tianji'] }),
  created_at: Type.String({ description: 'Unix seconds when it entered this library', examples: ['1795000000'] }),
  length: Type.Integer({ description: 'Characters (Unicode code points) of hitokoto', examples: [14] }),
});

const V1FailureSchema = Type.Object({
  status: Type.Integer({ examples: [400] }),
  message: Type.String({ examples: ['很抱歉，没有分类有句子符合长度区间。'] }),
  data: Type.Array(Type.Never(), { maxItems: 0 }),
  ts: Type.Integer({ description: 'Unix time in milliseconds' }),
});

const text = (description: string, examples: string[]) => Type.Optional(Type.String({ description, examples }));

/** Documentation only (the route reads its query with hitokoto.cn's own leniency, see readV1Query). */
const V1Query = Type.Object({
  c: Type.Optional(
    Type.Array(Type.String(), {
      description: `分类，可重复（c=a&c=b）；不认识的分类被忽略，省略或留空（c=）= 全部 Category, repeatable: ${categories}`,
      examples: [['d', 'k']],
    }),
  ),
  encode: text('json（默认，句子对象）、text（纯文本）、js（填入 select 的脚本）；其他值按 json', ['json']),
  charset: text('utf-8（默认）或 gbk（GBK 字节，Content-Type 带 charset=gbk）', ['utf-8']),
  callback: text('JSONP 回调函数名：返回 ;callback({...});（text/javascript）', ['showHitokoto']),
  select: text('encode=js 时要填的元素的 CSS 选择器，默认 .hitokoto（会被转义，不会被当作代码执行）', ['.hitokoto']),
  min_length: text('最短字数，默认 0', ['0']),
  max_length: text('最长字数，默认 30；须 ≤ 1000 且大于 min_length，否则按 30', ['30']),
});

const DESCRIPTION = [
  '与 hitokoto.cn v1 根路径逐项相同：从 `https://v1.hitokoto.cn/?c=a` 迁移到 `https://本服务/hitokoto/?c=a` 只需换域名，回答是裸句子对象（不是本服务 `/api/…` 的 `{code,msg,data,timestamp}` 信封），字段与 hitokoto.cn 相同。',
  '',
  'The same answers as hitokoto.cn’s v1 root, so a client written for it works by changing the base URL: the bare sentence object (`id` integer, `uuid`, `hitokoto`, `type`, `from`, `from_who`, `creator`, `creator_uid`, `reviewer`, `commit_from`, `created_at` Unix seconds as a string, `length`), not this service’s envelope.',
  '',
  '- `c` repeatable; unknown categories are ignored; omitted or empty (`?c=`) = every category. `min_length` (default 0) and `max_length` (default 30, at most 1000 and above `min_length`, else 30): a query no category or no sentence fits is HTTP 400 `{status, message, data: [], ts}` with hitokoto.cn’s Chinese message.',
  '- `encode=json|text|js` (anything else = json); `js` writes the sentence into `select` (default `.hitokoto`). `charset=gbk` answers GBK bytes. `callback` answers JSONP `;callback({...});` as `text/javascript`.',
  '- **What differs on purpose:** `select` is escaped (hitokoto.cn pastes it into the script, so a crafted link runs code on the embedding page); a `callback` that is not a function name is a 400; the category is drawn by its weight (every sentence in range equally likely), not uniformly; `creator_uid` and `reviewer` are 0 and `id` is derived from `uuid`.',
  '- Same as the rest of the public API: open CORS, the same rate limit (429 in this surface’s `{status, message}` shape), API keys as `/api/hitokoto` (group 每日 daily: a key limited to other groups is 403, a key required for daily is 401 without one, all in the `{status, message}` shape), no caching headers (every call is a new pick). Counted in usage as its own endpoint.',
  '- Another method or a path below `/hitokoto/` is HTTP 404 in the same `{status, message, data: [], ts}` shape, whatever its body.',
].join('\n');

/** Statuses a caller acts on differently from a bad query (fix the key, wait): answered as they are. */
const KEPT_STATUS = new Set([401, 403, 429]);

function send(reply: FastifyReply, r: V1Reply) {
  return reply.code(r.status).type(r.contentType).send(r.body);
}

/**
 * Errors before the handler (a refused key, the rate limit) in this surface's shape, never the envelope of /api; a
 * key refused keeps its status (401 invalid or required, 403 not allowed, 429 quota), as the /api routes answer.
 */
function sendV1Error(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  // An unknown method or path is unknown whatever its body, as under /api (http/error-handler.ts).
  if (req.is404 && err.code?.startsWith('FST_ERR_CTP_')) return sendV1NotFound(req, reply);
  const code = err.statusCode ?? 500;
  const status = KEPT_STATUS.has(code) ? code : code < 500 ? 400 : 500;
  if (status === 500) req.log.error({ err }, 'hitokoto drop-in failed');
  const message = status === 500 ? '服务器内部错误，请稍后重试' : err.message;
  for (const [k, v] of Object.entries((err as { headers?: Record<string, string> }).headers ?? {})) reply.header(k, v);
  return send(reply, renderV1Failure(new V1Failure(status, message), { charset: 'utf-8' }));
}

/** Another method or a path under /hitokoto/ that does not exist, in hitokoto.cn's shape. */
function sendV1NotFound(req: FastifyRequest, reply: FastifyReply) {
  const path = req.url.split('?')[0].slice(0, 80);
  const message = `接口不存在：${req.method} ${path}（hitokoto.cn 兼容接口只有 GET /hitokoto/）`;
  return send(reply, renderV1Failure(new V1Failure(404, message), { charset: 'utf-8' }));
}

/**
 * The drop-ins: other services' public APIs answered exactly as they answer, outside /api, so their clients only
 * change the host. One so far, registered under the prefix `/hitokoto` (public/index.ts): `GET /hitokoto/` (and
 * `/hitokoto`: the router ignores a trailing slash), hitokoto.cn's v1 root over the same sentence library as
 * `/api/hitokoto` (the content store's in-memory snapshot). Everything under the prefix fails in hitokoto.cn's shape
 * `{status, message, data: [], ts}`: another method or path (404, whatever its body), a refused key or the rate
 * limit.
 */
export default async function dropIns(app: FastifyInstance) {
  app.setErrorHandler(sendV1Error);
  // Whatever the body: an unknown method's body is read (and may be refused) before this runs; sendV1Error sends here.
  app.setNotFoundHandler(sendV1NotFound);
  app.route({
    method: 'GET',
    url: '/',
    // One route, `/hitokoto/` (what usage and the API reference name); the router's ignoreTrailingSlash serves
    // `/hitokoto` by it. Fastify's default would register `/hitokoto` as a second route.
    prefixTrailingSlash: 'slash',
    // The same sentences as /api/hitokoto, so the same group: a key's `groups` allow-list and the require-key policy
    // treat both alike (an operator who closes 每日 to anonymous callers closes its drop-in too).
    config: { area: 'other', countsUsage: true, lookupGroup: 'daily' },
    schema: {
      tags: [DROP_IN_TAG.name],
      summary: '一言 hitokoto.cn 兼容 Hitokoto drop-in',
      description: DESCRIPTION,
      querystring: V1Query,
      response: {
        200: {
          description: '成功 Success',
          content: {
            'application/json': { schema: V1SentenceSchema },
            'text/plain': { schema: { type: 'string' } },
            'application/javascript': { schema: { type: 'string' } },
            'text/javascript': { schema: { type: 'string' } },
          },
        },
        '4xx': {
          description:
            '无句子符合 / 参数无效（400）、接口密钥无效或需要密钥（401）、密钥不允许（403）、请求过于频繁（429）',
          content: { 'application/json': { schema: V1FailureSchema } },
        },
      },
    },
    // The schema documents; hitokoto.cn reads any value leniently (readV1Query), so nothing is refused by a validator.
    validatorCompiler: () => () => true,
    handler: (req, reply) => {
      const { query, failure } = readV1Query(req.query as Record<string, unknown>);
      if (failure) return send(reply, renderV1Failure(failure, query));
      const picked = pickV1(app.content.items('hitokoto'), query);
      if (picked instanceof V1Failure) return send(reply, renderV1Failure(picked, query));
      return send(reply, renderV1(picked, query));
    },
  });
}
