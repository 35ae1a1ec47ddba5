/**
 * hitokoto.cn's v1 root (`https://v1.hitokoto.cn/?c=a`) as a pure module: its query read with its lenient rules, its
 * sentence object, its failures and its three encodings, learned from its open-source server (hitokoto-osc/hitokoto-api,
 * Apache-2.0; behaviour only, no code of theirs). What differs on purpose: `select` is escaped in the `js` answer, a
 * `callback` must be a function name, and the category is drawn by its weight (see pickV1). No HTTP framework here.
 */
import iconv from 'iconv-lite';
import { HITOKOTO_CATEGORIES, charLength, hitokotoScript, type Sentence } from '../shared/hitokoto.js';
import { fnv1a, pickRandom } from '../shared/pick.js';

/** The sentence object exactly as hitokoto.cn sends it, fields in its order. */
export interface V1Sentence {
  /** hitokoto.cn numbers its sentences; ours are derived from the uuid (v1Number). */
  id: number;
  uuid: string;
  hitokoto: string;
  type: string;
  from: string;
  from_who: string | null;
  creator: string;
  /** hitokoto.cn's user ids; 0 here: sentences are not submitted by users of this service. */
  creator_uid: number;
  reviewer: number;
  commit_from: string;
  /** Unix seconds, as a string (hitokoto.cn's format). */
  created_at: string;
  length: number;
}

export type V1Encode = 'json' | 'text' | 'js';

export interface V1Query {
  /** Letters asked for (`c`, repeatable; empty values dropped); none = every category. Unknown letters never match. */
  categories: string[];
  encode: V1Encode;
  select: string;
  minLength: number;
  maxLength: number;
  charset: 'utf-8' | 'gbk';
  callback?: string;
}

/** A refusal in hitokoto.cn's shape: `{status, message, data: [], ts}` with the HTTP status `status`. */
export class V1Failure {
  constructor(
    readonly status: number,
    readonly message: string,
  ) {}

  body(): string {
    return JSON.stringify({ status: this.status, message: this.message, data: [], ts: Date.now() });
  }
}

const ENCODES = new Set<string>(['json', 'text', 'js']);
const DEFAULT_MAX_LENGTH = 30;
const MAX_LENGTH_LIMIT = 1000;
/** What a JSONP callback may be: a function name, or a dotted path to one (`app.show`), at most 64 characters. */
const CALLBACK = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;
const CALLBACK_MAX = 64;

/** A query value as one string: a repeated parameter reads as its values joined by commas, as Koa's did there. */
const one = (v: unknown): string | undefined =>
  v === undefined ? undefined : Array.isArray(v) ? v.map(String).join(',') : String(v);

/**
 * hitokoto.cn's reading of its query: anything it does not understand falls back to the default rather than failing
 * (`encode=xml` → json, `min_length=abc` → 0, `max_length` above 1000 or not above `min_length` → 30). The one
 * failure it has, and the one we add: `min_length` above the resulting `max_length`; a `callback` that is not a
 * function name (hitokoto.cn wraps any text in the answer; here it would be a script injection). A failure comes
 * with the query read so far, so it is answered in the charset (and JSONP, if valid) asked for.
 */
export function readV1Query(q: Record<string, unknown>): { query: V1Query; failure?: V1Failure } {
  // An empty `c` (`?c=`, a form's blank select) asks for no category in particular, as at hitokoto.cn: every one.
  const c = (q.c === undefined ? [] : Array.isArray(q.c) ? q.c.map(String) : [String(q.c)]).filter((v) => v !== '');
  const encode = one(q.encode);
  const min = Number.parseInt(one(q.min_length) ?? '', 10);
  const minLength = Math.max(min, 0) || 0;
  const max = Number.parseInt(one(q.max_length) ?? '', 10);
  const maxLength = max > 0 && max <= MAX_LENGTH_LIMIT && max > minLength ? max : DEFAULT_MAX_LENGTH;
  const callback = one(q.callback) || undefined;
  const validCallback = callback !== undefined && callback.length <= CALLBACK_MAX && CALLBACK.test(callback);
  const query: V1Query = {
    categories: [...new Set(c)],
    encode: encode !== undefined && ENCODES.has(encode) ? (encode as V1Encode) : 'json',
    select: one(q.select) ?? '.hitokoto',
    minLength,
    maxLength,
    charset: one(q.charset)?.toLowerCase() === 'gbk' ? 'gbk' : 'utf-8',
    callback: validCallback ? callback : undefined,
  };
  if (callback !== undefined && !validCallback) {
    const failure = new V1Failure(
      400,
      `参数 callback 无效：应为 JavaScript 函数名（字母、数字、_、$，可用 . 连接），最长 ${CALLBACK_MAX} 个字符，收到 ${JSON.stringify(callback.slice(0, 80))}`,
    );
    return { query, failure };
  }
  if (maxLength < minLength) return { query, failure: new V1Failure(400, '`max_length` 不能小于 `min_length`！') };
  return { query };
}

/** A positive 31-bit integer id derived from a sentence's uuid: stable, and within every client's `int`. */
export const v1Number = (uuid: string): number => fnv1a(uuid) >>> 1 || 1;

/** A sentence with its answer serialised once. */
export interface V1Entry {
  sentence: V1Sentence;
  json: string;
}

/** One snapshot of the library, prepared once: entries by category, each category's length range, pools asked for. */
interface V1Library {
  byType: Map<string, V1Entry[]>;
  range: Map<string, { min: number; max: number }>;
  pools: Map<string, V1Entry[]>;
}

const POOL_LIMIT = 512;
const libraries = new WeakMap<readonly Sentence[], V1Library>();

function unixSeconds(iso: string | undefined): string {
  const ms = iso === undefined ? Number.NaN : Date.parse(iso);
  return String(Number.isFinite(ms) ? Math.floor(ms / 1000) : 0);
}

function prepare(all: readonly Sentence[]): V1Library {
  let lib = libraries.get(all);
  if (lib) return lib;
  lib = { byType: new Map(), range: new Map(), pools: new Map() };
  for (const s of all) {
    if (!(s.type in HITOKOTO_CATEGORIES)) continue;
    const sentence: V1Sentence = {
      id: v1Number(s.id),
      uuid: s.id,
      hitokoto: s.content,
      type: s.type,
      from: s.from,
      from_who: s.from_who ?? null,
      creator: s.creator,
      creator_uid: 0,
      reviewer: 0,
      commit_from: s.commit_from,
      created_at: unixSeconds(s.created_at),
      length: charLength(s.content),
    };
    let list = lib.byType.get(s.type);
    if (!list) lib.byType.set(s.type, (list = []));
    list.push({ sentence, json: JSON.stringify(sentence) });
    const r = lib.range.get(s.type);
    if (!r) lib.range.set(s.type, { min: sentence.length, max: sentence.length });
    else {
      r.min = Math.min(r.min, sentence.length);
      r.max = Math.max(r.max, sentence.length);
    }
  }
  libraries.set(all, lib);
  return lib;
}

/**
 * One sentence for the query, or hitokoto.cn's failure when no category (`很抱歉，没有分类有句子符合长度区间。`) or
 * no sentence (`很抱歉，没有句子符合长度区间。`) fits the lengths.
 *
 * hitokoto.cn first picks one of the fitting categories uniformly, then a sentence in it; its own code notes that a
 * small category then repeats often. Here every fitting sentence is equally likely, which is the same as picking the
 * category by its weight (the number of its sentences in range) and then a sentence in it.
 */
export function pickV1(all: readonly Sentence[], q: V1Query): V1Entry | V1Failure {
  const lib = prepare(all);
  const asked = q.categories.length > 0 ? q.categories : [...lib.byType.keys()];
  const fitting = asked
    .filter((t) => {
      const r = lib.range.get(t);
      return r !== undefined && q.minLength <= r.max && q.maxLength >= r.min;
    })
    .sort();
  if (fitting.length === 0) return new V1Failure(400, '很抱歉，没有分类有句子符合长度区间。');
  const key = `${fitting.join('')}|${q.minLength}|${q.maxLength}`;
  let pool = lib.pools.get(key);
  if (!pool) {
    pool = fitting.flatMap((t) =>
      (lib.byType.get(t) ?? []).filter((e) => e.sentence.length >= q.minLength && e.sentence.length <= q.maxLength),
    );
    // Bounded: every (categories, min, max) a caller can make up must not grow the cache without limit.
    if (lib.pools.size < POOL_LIMIT) lib.pools.set(key, pool);
  }
  return pickRandom(pool) ?? new V1Failure(400, '很抱歉，没有句子符合长度区间。');
}

/** An answer: its content type and its bytes (a string for UTF-8, GBK bytes for `charset=gbk`). */
export interface V1Reply {
  status: number;
  contentType: string;
  body: string | Buffer;
}

const MIME: Record<V1Encode, string> = {
  json: 'application/json',
  text: 'text/plain',
  js: 'application/javascript',
};

/** `;callback(<json>);` with the line separators escaped (JSON allows them raw, JavaScript strings before ES2019 not). */
function jsonp(callback: string, json: string): string {
  return `;${callback}(${json.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')});`;
}

function finish(status: number, type: string, text: string, q: Pick<V1Query, 'charset'>): V1Reply {
  if (q.charset === 'gbk') return { status, contentType: `${type}; charset=gbk`, body: iconv.encode(text, 'gbk') };
  return { status, contentType: `${type}; charset=utf-8`, body: text };
}

/**
 * The answer as hitokoto.cn writes it: the sentence object (json), its text (text) or a script filling `select` (js);
 * with `callback`, JSONP around what the encoding gives (`text/javascript`); with `charset=gbk`, GBK bytes.
 */
export function renderV1(entry: V1Entry, q: V1Query): V1Reply {
  const { sentence } = entry;
  const text =
    q.encode === 'json'
      ? entry.json
      : q.encode === 'text'
        ? sentence.hitokoto
        : hitokotoScript(sentence.hitokoto, q.select);
  if (q.callback)
    return finish(200, 'text/javascript', jsonp(q.callback, q.encode === 'json' ? text : JSON.stringify(text)), q);
  return finish(200, MIME[q.encode], text, q);
}

/** A failure as hitokoto.cn sends it: JSON (JSONP when a valid callback was given), in the charset asked for. */
export function renderV1Failure(f: V1Failure, q: Pick<V1Query, 'charset' | 'callback'>): V1Reply {
  if (q.callback) return finish(f.status, 'text/javascript', jsonp(q.callback, f.body()), q);
  return finish(f.status, 'application/json', f.body(), q);
}
