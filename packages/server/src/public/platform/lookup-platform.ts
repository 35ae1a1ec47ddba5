import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import { EnvelopeSchema, SUCCESS_MSG, ok } from '../../http/envelope.js';
import { describeValidation } from '../../http/validation-messages.js';
import { isNumeric } from '../../http/finite-numbers.js';
import { LookupError, invalidParamMessage } from '../../errors.js';
import { etagOf, matchesEtag } from '../../shared/etag.js';
import { NO_STORE } from '../../http/no-store.js';
import { LOOKUP_GROUPS, type LookupGroup } from '../../catalogue/lookup-groups.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The group whose folder the current route file sits in (set by public/index.ts for each group's routes). */
    lookupGroup?: LookupGroup;
  }
}

/**
 * A reply that is not the JSON envelope (plain text, a script, an image). Handlers return it when the
 * caller asked for a raw format; the platform sends it as is, with the same CORS and caching rules.
 */
export class RawReply {
  constructor(
    readonly contentType: string,
    readonly body: string | Buffer,
  ) {}
}

export interface LookupCache<Q> {
  /** Seconds a client or CDN may keep the answer. */
  maxAge: number;
  /** Extra cache key for answers that also depend on something outside the query (today's date, the public base URL of the request). */
  vary?: (query: Q, req: FastifyRequest) => string;
}

export interface LookupRouteDef<Q extends TObject, D extends TSchema> {
  /** Only for routes registered outside a group folder (test probes); a route file's group is its folder. */
  group?: LookupGroup;
  path: string;
  summary: string;
  /** 中文说明 (Chinese first, because the callers are Chinese-speaking): leads the OpenAPI description. */
  zh: string;
  description?: string;
  query: Q;
  data: D;
  /** Deterministic answers: memoised per query, sent with Cache-Control and ETag, and 304 on If-None-Match. */
  cache?: LookupCache<Static<Q>>;
  /**
   * The handler's JSON answers are items of an immutable snapshot (the same object each time an item is picked, a
   * new one once the snapshot changes), or fresh arrays of such items: each item is serialised once, while it lives,
   * and a pick costs no serialisation (an array's answer is its items' bytes joined).
   */
  stableData?: boolean;
  /**
   * The query carries a secret (e.g. a password): the route writes no access-log lines (they would record the URL)
   * and answers with `Cache-Control: no-store`. Not combinable with `cache`.
   */
  sensitiveQuery?: boolean;
  /**
   * Media types the route answers besides the JSON envelope, for the OpenAPI document (`image/png`, `text/plain`, …).
   * A route whose `data` is null answers only these.
   */
  media?: string[];
  /** Bypass the memo when the query asks for randomness (e.g. `random=true`). */
  handler: (
    query: Static<Q>,
    req: FastifyRequest,
    reply: FastifyReply,
  ) => Static<D> | RawReply | Promise<Static<D> | RawReply>;
}

interface Memo {
  /**
   * The success envelope serialised by the route's own schema, up to the timestamp's digits (see envelopeHead), as
   * UTF-8 bytes: sending a string re-encodes it on every request, which for Chinese text is a real part of a hit.
   */
  head: Buffer;
  etag: string;
  raw?: RawReply;
  /** Memory the entry holds (the head's bytes, or heapBytes of a raw body), for the memo's byte budget. */
  bytes: number;
}

/**
 * A route's last envelope sent from its memo, with its timestamp: requests for the same entry in the same millisecond
 * send these bytes again instead of copying the answer anew. One per route, so the memo's byte budget still holds.
 */
interface LastSent {
  hit?: Memo;
  at: number;
  bytes: Buffer;
}

const MEMO_LIMIT = 2000;
/**
 * For all routes together: images and long lists are memoised too, so entries alone do not bound the memory, and a
 * budget per route (there are dozens) would allow hundreds of MB.
 */
const MEMO_BYTES = 24 * 1024 * 1024;

/**
 * The memo's bytes across every route of one app (keyed by its HTTP server, which all its plugin contexts share);
 * each route evicts its own oldest entries to stay within MEMO_BYTES.
 */
const memoBudgets = new WeakMap<object, { used: number }>();
function memoBudgetOf(app: FastifyInstance): { used: number } {
  let budget = memoBudgets.get(app.server);
  if (!budget) memoBudgets.set(app.server, (budget = { used: 0 }));
  return budget;
}

/**
 * Registers one public GET endpoint: query and data schemas (validated, serialised fast, documented), the
 * envelope, caching, and the public area's error rendering. Every Area B route goes through here.
 */
export function lookupRoute<Q extends TObject, D extends TSchema>(
  app: FastifyInstance,
  def: LookupRouteDef<Q, D>,
): void {
  const memo = new Map<string, Memo>();
  const last: LastSent = { at: 0, bytes: Buffer.alloc(0) };
  const stable = def.stableData ? new StableAnswers() : undefined;
  const memoBudget = memoBudgetOf(app);
  const group = def.group ?? app.lookupGroup;
  if (!group)
    throw new Error(`lookupRoute ${def.path}: registered outside a public/groups/<group>/ folder and names no group`);
  const tag = LOOKUP_GROUPS[group].name;
  const numeric = numericParams(def.query);
  const params = Object.keys(def.query.properties);
  const query = documentedQuery(def.query);
  const optional = new Set(params.filter((k) => !(query.required ?? []).includes(k)));
  const cache = def.cache;
  const cacheControl = cache && `public, max-age=${cache.maxAge}`;

  app.route({
    method: 'GET',
    url: def.path,
    config: { area: 'lookup', lookupGroup: group, lookupMedia: def.media },
    ...(def.sensitiveQuery ? { logLevel: 'warn', onRequest: noStore } : {}),
    schema: {
      tags: [tag],
      summary: def.summary,
      description: def.description ? `${def.zh}\n\n${def.description}` : def.zh,
      querystring: query,
      // Anonymous, or with an API key (public/keys/gate.ts checks it; documented in the OpenAPI info).
      security: [{}, { apiKey: [] }],
      response: {
        200: EnvelopeSchema(def.data),
        '4xx': { $ref: 'LookupError#' },
        '5xx': { $ref: 'LookupError#' },
      },
    },
    preValidation: (req, _reply, done) => {
      tidyQuery(req.query as Record<string, unknown>, params, optional, numeric);
      done();
    },
    // Not async: a memo hit (and a handler that answers synchronously) is sent in the same tick, as a bare Fastify
    // handler sends, without a promise and the microtasks of resolving one with the reply.
    handler: (req, reply) => {
      // Q is a type parameter: Fastify's type provider cannot resolve Static<Q> through it, so the one cast of the
      // public API sits here; each route's handler receives `Static<Q>` from the definition's own schema.
      const query = req.query as Static<Q>;
      if (!cache) {
        const result = def.handler(query, req, reply);
        return isPromise(result) ? result.then((r) => answer(reply, r)) : answer(reply, result);
      }
      // The memo is this route's own: the key is the query (and what the answer varies with), not the path.
      const key = cacheKey(params, query as Record<string, unknown>, cache.vary?.(query, req));
      const hit = memo.get(key);
      if (hit) return sendHit(req, reply, hit);
      const result = def.handler(query, req, reply);
      return isPromise(result)
        ? result.then((r) => sendHit(req, reply, remember(key, r, reply)))
        : sendHit(req, reply, remember(key, result, reply));
    },
  });

  /** A fresh answer that is not memoised: a raw body as is, a stableData route's from its serialised items. */
  function answer(reply: FastifyReply, result: Static<D> | RawReply) {
    if (result instanceof RawReply) return reply.type(result.contentType).send(result.body);
    if (stable && Array.isArray(result)) return sendEnvelope(reply, stable.itemsHead(reply, result));
    if (stable && typeof result === 'object' && result !== null) return sendEnvelope(reply, stable.head(reply, result));
    return ok(result);
  }

  /** Files a fresh answer in the memo (when the budget allows) and returns its entry. */
  function remember(key: string, result: Static<D> | RawReply, reply: FastifyReply): Memo {
    let hit: Memo;
    if (result instanceof RawReply) {
      hit = { head: Buffer.alloc(0), raw: result, etag: etagOf(result.body), bytes: heapBytes(result.body) };
    } else {
      const head = envelopeHead(reply, result);
      hit = { head, etag: etagOf(JSON.stringify(result)), bytes: head.length };
    }
    // Bounded by entries and by size: distinct queries (hostile ones included) must not grow the memo without limit.
    // A route with nothing left to evict stores nothing more once the shared budget is spent.
    while (memo.size > 0 && (memo.size >= MEMO_LIMIT || memoBudget.used + hit.bytes > MEMO_BYTES)) {
      const oldest = memo.keys().next().value as string;
      memoBudget.used -= memo.get(oldest)!.bytes;
      memo.delete(oldest);
    }
    if (memoBudget.used + hit.bytes <= MEMO_BYTES) {
      memo.set(key, hit);
      memoBudget.used += hit.bytes;
    }
    return hit;
  }

  function sendHit(req: FastifyRequest, reply: FastifyReply, hit: Memo) {
    reply.header('cache-control', cacheControl);
    reply.header('etag', hit.etag);
    if (matchesEtag(req.headers['if-none-match'], hit.etag)) return reply.code(304).send();
    if (hit.raw) return reply.type(hit.raw.contentType).send(hit.raw.body);
    const now = Date.now();
    if (last.hit !== hit || last.at !== now) {
      last.hit = hit;
      last.at = now;
      last.bytes = envelopeAt(hit.head, now);
    }
    return reply.type(JSON_TYPE).send(last.bytes);
  }
}

const isPromise = <T>(x: T | Promise<T>): x is Promise<T> =>
  typeof (x as { then?: unknown } | null)?.then === 'function';

/**
 * Sends an envelope serialised earlier (envelopeHead, as UTF-8 bytes): no serialisation and no encoding, only a
 * fresh timestamp and the closing `}`.
 */
function sendEnvelope(reply: FastifyReply, head: Buffer) {
  return reply.type(JSON_TYPE).send(envelopeAt(head, Date.now()));
}

const JSON_TYPE = 'application/json; charset=utf-8';

function envelopeAt(head: Buffer, now: number): Buffer {
  const tail = `${now}}`;
  const out = Buffer.allocUnsafe(head.length + tail.length);
  head.copy(out);
  out.write(tail, head.length, 'latin1');
  return out;
}

/** Query keys every endpoint accepts and ignores: the cache-busters of jQuery (`_`) and hand-written links (`t`). */
export const CACHE_BUSTERS = ['_', 't'] as const;

/** The query schema as documented: a parameter with a default is not `required` (it is filled in when absent). */
function documentedQuery<Q extends TObject>(q: Q): Q {
  const props = q.properties as Record<string, { default?: unknown }>;
  const required = (q.required ?? []).filter((k) => props[k]?.default === undefined);
  const out = { ...q, required } as Q;
  if (required.length === 0) delete (out as { required?: string[] }).required;
  return out;
}

/** A number as people write it in decimal: `2025`, `-3`, `1.5`; not `0x7E9`, `1e1`, `02025`, ` 5` or `+5`. */
const DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

/**
 * Before validation, the query as the contract reads it:
 * - an empty value of an optional parameter (`?date=&seed=`, as /docs' own forms send) means "not given";
 * - cache-busters (`_`, `t`) are dropped; any other parameter the endpoint does not know is an error naming it and
 *   listing the accepted ones (a typo such as `plate=` must not silently answer the unfiltered list);
 * - numbers must be decimal: ajv would coerce `0x7E9`, `1e1` and `02025`, which no caller means.
 */
function tidyQuery(
  query: Record<string, unknown>,
  params: string[],
  optional: Set<string>,
  numeric: Array<[string, TSchema]>,
): void {
  for (const key of Object.keys(query)) {
    if (!params.includes(key)) {
      if ((CACHE_BUSTERS as readonly string[]).includes(key)) {
        delete query[key];
        continue;
      }
      const accepted = params.length > 0 ? `本接口接受的参数为 ${params.join('、')}` : '本接口不接受参数';
      throw new LookupError(
        invalidParamMessage(key, `不支持该参数，${accepted}（另可附带防缓存参数 _ 或 t，会被忽略）`),
      );
    }
    const v = query[key];
    if (optional.has(key)) {
      if (v === '') delete query[key];
      else if (Array.isArray(v)) {
        const kept = v.filter((x) => x !== '');
        if (kept.length === 0) delete query[key];
        else query[key] = kept.length === 1 ? kept[0] : kept;
      }
    }
  }
  for (const [name, schema] of numeric) {
    const v = query[name];
    const bad = (Array.isArray(v) ? v : [v]).find(
      (x) => typeof x === 'string' && x.trim() !== '' && Number.isFinite(Number(x)) && !DECIMAL.test(x),
    );
    if (bad === undefined) continue;
    const type = (schema as SchemaNode).type === 'integer' ? 'integer' : 'number';
    const { message } = describeValidation(
      [{ keyword: 'type', instancePath: `/${name}`, params: { type }, parentSchema: schema, data: bad }],
      'querystring',
    );
    throw new LookupError(message.replace('，收到 ', '（须用十进制写法，不带前导 0、指数或进制前缀），收到 '));
  }
}

/**
 * `{"code":200,"msg":"请求成功","data":…,"timestamp":` as the route's response serializer writes it (so the schema
 * still decides which fields go out); envelopeHead gives it as the UTF-8 bytes sendEnvelope appends the timestamp to.
 */
function envelopeText(reply: FastifyReply, data: unknown): string {
  const full = String(reply.serialize({ code: 200, msg: SUCCESS_MSG, data, timestamp: 0 }));
  const at = full.lastIndexOf('"timestamp":0}');
  if (at < 0 || at + 14 !== full.length) throw new Error('envelope serialised in an unexpected order');
  return full.slice(0, at + 12);
}

const envelopeHead = (reply: FastifyReply, data: unknown): Buffer => ownBytes(envelopeText(reply, data));

/**
 * The UTF-8 bytes of `text` in memory of their own. Buffer.from takes a small string's bytes from a shared 8 KB slab,
 * and a cached answer kept that way would keep its whole slab alive.
 */
function ownBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}

/**
 * The serialised answers of a stableData route, per snapshot object (kept while the object lives). An array's items
 * are cut out of a one-item envelope serialised by the route's own schema, so their bytes are what serialising the
 * whole array would give (the serializer writes array items one after another, comma-separated).
 */
class StableAnswers {
  private readonly heads = new WeakMap<object, Buffer>();
  private readonly items = new WeakMap<object, Buffer>();
  /** An empty array's envelope split around its `[]`: `{"code":…,"data":[` and `],"timestamp":`. */
  private arrayEnds?: { open: string; close: string; openBytes: Buffer; closeBytes: Buffer };

  head(reply: FastifyReply, data: object): Buffer {
    let head = this.heads.get(data);
    if (!head) this.heads.set(data, (head = envelopeHead(reply, data)));
    return head;
  }

  itemsHead(reply: FastifyReply, data: unknown[]): Buffer {
    const ends = (this.arrayEnds ??= arrayEnds(envelopeText(reply, [])));
    const parts: Buffer[] = [ends.openBytes];
    for (const [i, item] of data.entries()) {
      if (i > 0) parts.push(COMMA);
      let bytes = typeof item === 'object' && item !== null ? this.items.get(item) : undefined;
      if (!bytes) {
        const one = envelopeText(reply, [item]);
        bytes = ownBytes(one.slice(ends.open.length, one.length - ends.close.length));
        if (typeof item === 'object' && item !== null) this.items.set(item, bytes);
      }
      parts.push(bytes);
    }
    parts.push(ends.closeBytes);
    return Buffer.concat(parts);
  }
}

const COMMA = Buffer.from(',');

function arrayEnds(empty: string) {
  const at = empty.lastIndexOf('[],"timestamp":');
  if (at < 0) throw new Error('envelope of an array serialised in an unexpected shape');
  const open = empty.slice(0, at + 1);
  const close = empty.slice(at + 1);
  return { open, close, openBytes: ownBytes(open), closeBytes: ownBytes(close) };
}

/** Errors included: a secret may be echoed in a message. */
function noStore(_req: FastifyRequest, reply: FastifyReply, done: () => void) {
  reply.header('cache-control', NO_STORE);
  done();
}

/**
 * Canonical key: the declared parameters of the validated query (coerced, defaults applied, in schema order), so
 * `?a=1&b=2`, `?b=2&a=01` and the same query with an undeclared extra share an entry: the handler sees the same.
 */
function cacheKey(params: string[], query: Record<string, unknown>, extra?: string): string {
  return `${params.length ? JSON.stringify(params.map((k) => query[k])) : ''}#${extra ?? ''}`;
}

type SchemaNode = { type?: unknown };

/** The query's number and integer parameters (top level, or arrays of them). */
function numericParams(query: TObject): Array<[string, TSchema]> {
  return Object.entries(query.properties).filter(([, s]) => isNumeric(s as SchemaNode));
}

/**
 * What `body` takes in memory, for the memo's byte budget: V8 keeps a string with any character beyond Latin-1
 * (Chinese text) at two bytes per character, so its length alone would let the memo hold twice its budget.
 */
export function heapBytes(body: string | Buffer): number {
  return typeof body === 'string' && /[\u0100-\uffff]/.test(body) ? body.length * 2 : body.length;
}
