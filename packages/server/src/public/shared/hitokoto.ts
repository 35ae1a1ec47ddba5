/**
 * 一言 (hitokoto): one sentence at random, filtered by category and length. Pure: the sentences come from a
 * `SentenceSource`, so the shipped file, the admin-managed content library, or a test list can feed it.
 */
import { readFileSync } from 'node:fs';
import { paramError } from '../../errors.js';
import { HITOKOTO_TYPE_NAMES } from '../../catalogue/content-libraries.js';
import { pickRandom } from './pick.js';

/** One sentence as stored (the `data/content/hitokoto.json` row and the content library item). */
export interface Sentence {
  id: string;
  /** Category letter a–l (see HITOKOTO_CATEGORIES). */
  type: string;
  content: string;
  /** The work it comes from. */
  from: string;
  /** Who said or wrote it, when known. */
  from_who: string | null;
  creator: string;
  commit_from: string;
  /** Provenance: `tianji`, `public-domain` or `npm:<package>@<version>` (data/README.md); an operator's rows may have none. */
  source?: string;
  /** When the sentence entered this library (ISO 8601): the content store's row, absent in the shipped file. */
  created_at?: string;
}

/** The answer: the sentence plus its length in characters. */
export interface Hitokoto extends Sentence {
  length: number;
}

/** Where sentences come from. `all()` is called per request, so it must be cheap (an in-memory snapshot). */
export interface SentenceSource {
  all(): readonly Sentence[];
}

/** The twelve categories of the hitokoto API, by letter (their names are the content library's: one list). */
export const HITOKOTO_CATEGORIES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(HITOKOTO_TYPE_NAMES).map(([letter, name]) => [letter, name.zh]),
);

const LETTERS = Object.keys(HITOKOTO_CATEGORIES);
const CATEGORY_LIST = LETTERS.map((l) => `${l} ${HITOKOTO_CATEGORIES[l]}`).join('，');

/** Characters as a reader counts them: code points, so 😀 or 𠮷 count once (String.length would count two). */
export const charLength = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

/** The shipped sentences, read once. */
export function fileSentenceSource(
  file: URL | string = new URL('../../../../../data/content/hitokoto.json', import.meta.url),
): SentenceSource {
  const rows = JSON.parse(readFileSync(file, 'utf8')) as Sentence[];
  return { all: () => rows };
}

/**
 * `a,b,c` → the letters asked for; empty or omitted → every category. Unknown letters are an error naming them.
 * Spaces around letters and upper case are tolerated (`A, b`).
 */
export function parseTypes(raw: string | undefined): string[] {
  // Most calls name no category: no split of an empty string on every request.
  if (raw === undefined || raw === '') return LETTERS;
  const parts = (raw ?? '')
    .split(',')
    .map((p) => p.trim().toLowerCase())
    .filter(Boolean);
  if (parts.length === 0) return LETTERS;
  const unknown = [...new Set(parts.filter((p) => !(p in HITOKOTO_CATEGORIES)))];
  if (unknown.length)
    throw paramError(
      'type',
      `未知的分类 ${unknown.map((u) => `"${u}"`).join('、')}；应为 a 至 l 的字母，多个用逗号分隔（${CATEGORY_LIST}）`,
      raw,
    );
  return [...new Set(parts)];
}

export interface HitokotoQuery {
  types: string[];
  minLength?: number;
  maxLength?: number;
}

/** One snapshot, prepared once (keyed by the array's identity): sentences with their lengths, by category. */
interface Prepared {
  byType: Map<string, Hitokoto[]>;
  /** Pools of category combinations already asked for (`a,b` → every a and b sentence), bounded. */
  pools: Map<string, Hitokoto[]>;
}

const POOL_LIMIT = 256;
const prepared = new WeakMap<readonly Sentence[], Prepared>();

function prepare(all: readonly Sentence[]): Prepared {
  let p = prepared.get(all);
  if (!p) {
    const byType = new Map<string, Hitokoto[]>(LETTERS.map((l) => [l, []]));
    for (const s of all) {
      byType.get(s.type)?.push({
        id: s.id,
        from: s.from,
        type: s.type,
        length: charLength(s.content),
        content: s.content,
        creator: s.creator,
        from_who: s.from_who ?? null,
        commit_from: s.commit_from,
      });
    }
    p = { byType, pools: new Map() };
    prepared.set(all, p);
  }
  return p;
}

function poolOf(p: Prepared, types: string[]): Hitokoto[] {
  // Every category (LETTERS itself, what parseTypes gives for none named) without joining twelve letters per request.
  const key = types === LETTERS ? '' : types.join(',');
  let pool = p.pools.get(key);
  if (!pool) {
    pool = types.flatMap((t) => p.byType.get(t) ?? []);
    if (p.pools.size < POOL_LIMIT) p.pools.set(key, pool);
  }
  return pool;
}

/**
 * A random sentence of one of `types` whose length lies in [minLength, maxLength] (both inclusive, both optional).
 * Errors: minLength above maxLength; no sentence in those categories; no sentence of that length (the message
 * says which lengths exist).
 */
export function pickHitokoto(source: SentenceSource, q: HitokotoQuery): Hitokoto {
  const min = q.minLength ?? 0;
  const max = q.maxLength ?? Infinity;
  if (min > max) throw paramError('minLength', `不能大于 maxLength（${q.maxLength}）`, q.minLength);
  const pool = poolOf(prepare(source.all()), q.types);
  // Only the error messages name the categories: built when one is thrown, not on every pick.
  const names = () => q.types.map((t) => `${t} ${HITOKOTO_CATEGORIES[t]}`).join('，');
  // a 动画, b 漫画, c 游戏 and h 影视 ship empty (no openly licensed source): the operator fills them (docs/guide/hitokoto.md).
  if (pool.length === 0)
    throw paramError(
      'type',
      `所选分类（${names()}）中还没有句子：本服务不附带这些分类的句子（没有可公开授权的来源），运营者可在管理后台「一言」内容库或用命令行 tianji content import hitokoto 导入自己的句子`,
      q.types.join(','),
    );
  const fits =
    q.minLength === undefined && q.maxLength === undefined
      ? pool
      : pool.filter((s) => s.length >= min && s.length <= max);
  const chosen = pickRandom(fits);
  if (!chosen) {
    const lengths = pool.map((s) => s.length);
    const wanted =
      q.minLength !== undefined && q.maxLength !== undefined
        ? `长度在 ${q.minLength} 至 ${q.maxLength} 个字符之间`
        : q.minLength !== undefined
          ? `长度不少于 ${q.minLength} 个字符`
          : `长度不超过 ${q.maxLength} 个字符`;
    throw paramError(
      'minLength/maxLength',
      `所选分类（${names()}）中没有${wanted}的句子，现有句子长度为 ${Math.min(...lengths)} 至 ${Math.max(...lengths)} 个字符`,
    );
  }
  return chosen;
}

/** A JSON string literal that is also safe inside an HTML <script> element (no `</script>`, no `<!--`). */
function scriptString(s: string): string {
  return JSON.stringify(s)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * A single-quoted JavaScript string literal of any text. Everything but the characters listed (printable ASCII less
 * `"`, `'`, `<`, `>` and `\`, and non-ASCII less U+2028/U+2029) is written as `\uXXXX`, so nothing in the text can
 * end the literal, the statement or the script element around it.
 */
const UNSAFE_IN_QUOTES = /[^\x20\x21\x23-\x26\x28-\x3b\x3d\x3f-\x5b\x5d-\x7e\u0080-\u2027\u202a-\uffff]/g;
function quotedScriptString(s: string): string {
  return `'${s.replace(UNSAFE_IN_QUOTES, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}'`;
}

/**
 * `format=js` (and the hitokoto.cn drop-in's `encode=js`): a script that writes the sentence into the first element
 * matching `selector`, shaped like hitokoto.cn's own script (`<script src="…?encode=js"></script>` next to
 * `<p class="hitokoto">`; the selector in single quotes as there). hitokoto.cn pastes the selector in unescaped, so a
 * link with `select=');alert(1);('` runs code on the page that embeds it; here it is only ever a string.
 */
export function hitokotoScript(content: string, selector: string): string {
  return `(function hitokoto(){var hitokoto=${scriptString(content)};var dom=document.querySelector(${quotedScriptString(selector)});Array.isArray(dom)?dom[0].innerText=hitokoto:dom.innerText=hitokoto;})()`;
}
