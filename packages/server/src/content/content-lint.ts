/**
 * Data lint for content-library items: what a schema cannot say. Run over every shipped library by
 * `content-lint.test.ts`, and over every row an operator imports, creates or edits (content/routes.ts), so an
 * empty, broken, duplicate or editorially marked entry never reaches the public endpoints.
 */
import type { LibraryDef } from '../catalogue/content-libraries.js';
import { standardChars } from './variant-chars.js';

export interface LintProblem {
  /** 1-based row within the checked list (0 for a single item). */
  row: number;
  field: string;
  message: string;
}

type Item = Record<string, unknown>;

/** Dynasties a poem may be labelled with. */
export const DYNASTIES = [
  '先秦',
  '汉',
  '魏晋',
  '南北朝',
  '隋',
  '唐',
  '五代',
  '宋',
  '辽',
  '金',
  '元',
  '明',
  '清',
  '近现代',
] as const;

/**
 * Authors whose dynasty is settled and who are often mislabelled because their poems sit in 全唐诗 (the 五代 poets)
 * or straddle two dynasties. Written out by the project from standard literary histories.
 */
export const AUTHOR_DYNASTY: Record<string, string> = {
  李煜: '五代',
  李璟: '五代',
  冯延巳: '五代',
  和凝: '五代',
  李珣: '五代',
  李中: '五代',
  孙光宪: '五代',
  欧阳炯: '五代',
  顾夐: '五代',
  鹿虔扆: '五代',
  毛文锡: '五代',
  牛希济: '五代',
  花蕊夫人: '五代',
  徐铉: '五代',
  李白: '唐',
  杜甫: '唐',
  王维: '唐',
  白居易: '唐',
  李商隐: '唐',
  杜牧: '唐',
  孟浩然: '唐',
  王昌龄: '唐',
  韩愈: '唐',
  柳宗元: '唐',
  苏轼: '宋',
  辛弃疾: '宋',
  李清照: '宋',
  陆游: '宋',
  柳永: '宋',
  欧阳修: '宋',
  王安石: '宋',
  晏殊: '宋',
  周邦彦: '宋',
  姜夔: '宋',
};

/**
 * Editorial marks from a collation left in the text: `[妆]`, `［一］`, `{隽乃=冏}`, `□` or its look-alike `囗` (U+56D7,
 * typed for a lost character: 卢纶《无题》 had a line `囗囗囗囗囗囗囗`), U+FFFD.
 */
const EDITORIAL = /[[\]［］□■囗\uFFFD]|\{[^}]*=[^}]*\}/u;
/** Collation notes inside a verse line: （一作「美」）, （见《类说》…）, 〖1〗. */
const COLLATION = /[（）()「」『』〖〗]/u;
const HAS_WORD = /[\p{L}\p{N}]/u;
/** An author is a name: Han characters (or letters) and the middle dot, no digits, spaces or marks. */
const AUTHOR = /^[\p{Script=Han}\p{L}·]{1,16}$/u;

/** What is wrong with a text's quotation marks (a closing mark before its opening one, one left open), if anything. */
export function quoteProblem(s: string): string | undefined {
  for (const [open, close] of QUOTE_PAIRS) {
    let depth = 0;
    for (const ch of s) {
      if (ch === open) depth++;
      else if (ch === close && --depth < 0) return `引号次序颠倒或缺少前引号（${close} 出现在 ${open} 之前）`;
    }
    if (depth > 0) return `引号未闭合（缺少 ${close}）`;
  }
  return undefined;
}
const QUOTE_PAIRS = [
  ['“', '”'],
  ['‘', '’'],
] as const;

/**
 * Text with punctuation, spaces and case removed and variant characters in their standard form (variant-chars.ts):
 * two entries that differ only there are duplicates (天涯若比邻 / 天涯若比隣).
 */
export const normaliseText = (s: string) =>
  standardChars(
    s
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[\p{P}\p{S}\s]/gu, ''),
  );

/**
 * The half-line of a regular poem that lost a character in the source: every other half-line of the poem (at least
 * four) has five or seven characters and this one has one fewer (敦煌廿咏《相似树咏》 `不容凡鸟坐，应欲俟栖。`).
 * Undefined when there is none, or more than one irregular half-line (乐府's `君不见…` is a form, not a loss).
 */
export function lostCharacterLine(lines: readonly string[]): string | undefined {
  const halves = lines.flatMap((l) => l.split(/[，。？！；：、]/u)).filter((h) => h !== '');
  const len = (h: string) => [...h.replace(/[^\p{Script=Han}]/gu, '')].length;
  const counts = new Map<number, number>();
  for (const h of halves) counts.set(len(h), (counts.get(len(h)) ?? 0) + 1);
  const [regular, n] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [0, 0];
  if ((regular !== 5 && regular !== 7) || n < 4 || n !== halves.length - 1) return undefined;
  const odd = halves.find((h) => len(h) !== regular)!;
  return len(odd) === regular - 1 ? lines.find((l) => l.includes(odd)) : undefined;
}

/** The text that makes an item itself, for duplicate detection; undefined when the library has no such notion. */
export function duplicateKey(lib: LibraryDef, item: Item): string | undefined {
  if (lib.name === 'poems') return Array.isArray(item.lines) ? normaliseText(item.lines.join('')) : undefined;
  if (!lib.uniqueField) return undefined;
  const v = item[lib.uniqueField];
  return typeof v === 'string' ? normaliseText(v) : JSON.stringify(v);
}

/** Which string fields of the library must hold words (its schema says minLength ≥ 1). */
function requiredTextFields(lib: LibraryDef): Set<string> {
  const out = new Set<string>();
  for (const [key, prop] of Object.entries(lib.schema.properties) as Array<
    [string, { type?: string; minLength?: number; items?: { minLength?: number } }]
  >) {
    if (
      (prop.type === 'string' && (prop.minLength ?? 0) > 0) ||
      (prop.type === 'array' && (prop.items?.minLength ?? 0) > 0)
    )
      out.add(key);
  }
  return out;
}

/** Problems of one item (row 0); field names as in the schema, `lines/3` for an array element. */
export function lintItem(lib: LibraryDef, item: Item): LintProblem[] {
  const problems: LintProblem[] = [];
  const add = (field: string, message: string) => problems.push({ row: 0, field, message });
  const required = requiredTextFields(lib);
  const checkText = (field: string, value: string, mustHaveWords: boolean) => {
    if (mustHaveWords && !HAS_WORD.test(value))
      add(field, value.trim() === '' ? '内容为空' : `只有标点，没有文字：“${value.slice(0, 20)}”`);
    else if (value !== value.trim()) add(field, '首尾有空白');
    if (EDITORIAL.test(value)) add(field, `含校勘或缺字标记（[ ]、{甲=乙}、□、囗 等）：“${value.slice(0, 40)}”`);
    const quotes = quoteProblem(value);
    if (quotes) add(field, `${quotes}：“${value.slice(0, 40)}”`);
  };
  for (const [field, value] of Object.entries(item)) {
    if (lib.name === 'wallpapers' && field === 'url') continue; // a URL may hold [ ] legitimately
    if (typeof value === 'string') checkText(field, value, required.has(field));
    else if (Array.isArray(value))
      for (const [i, v] of value.entries())
        if (typeof v === 'string') checkText(`${field}/${i}`, v, required.has(field));
  }
  if (lib.name === 'poems') lintPoem(item, add);
  if (lib.name === 'hitokoto') lintSentence(item, add);
  return problems;
}

function lintPoem(item: Item, add: (field: string, message: string) => void) {
  const { author, dynasty, lines, featured } = item as {
    author?: unknown;
    dynasty?: unknown;
    lines?: unknown;
    featured?: unknown;
  };
  if (typeof dynasty === 'string' && !(DYNASTIES as readonly string[]).includes(dynasty))
    add('dynasty', `朝代应为 ${DYNASTIES.join('、')} 之一，实际为“${dynasty}”`);
  if (typeof author === 'string') {
    if (!AUTHOR.test(author))
      add('author', `作者应是人名（汉字或字母，可含 ·，不含数字、空格、标记），实际为“${author}”`);
    if ([...author].length === 1)
      add('author', `作者只有一个字“${author}”：像是在生僻字处被截断的姓名（向滈 成了 向），应写全名`);
    const known = AUTHOR_DYNASTY[author];
    if (known && typeof dynasty === 'string' && dynasty !== known)
      add('dynasty', `${author} 是${known}人，不是${dynasty}`);
  }
  if (Array.isArray(lines)) {
    lines.forEach((l, i) => {
      if (typeof l === 'string' && COLLATION.test(l))
        add(`lines/${i}`, `诗句中夹有校注（括号、「」或〖〗）：“${l.slice(0, 40)}”`);
    });
    const lost = lostCharacterLine(lines.filter((l): l is string => typeof l === 'string'));
    if (lost !== undefined)
      add(`lines/${lines.indexOf(lost)}`, `这一句比全诗其他句少一个字，像是底本缺字：“${lost.slice(0, 40)}”`);
  }
  if (
    Array.isArray(lines) &&
    typeof featured === 'string' &&
    featured !== '' &&
    !lines.some((l) => typeof l === 'string' && l.includes(featured))
  ) {
    add('featured', 'featured 应是诗中的一句');
  }
}

/** The 乐府诗集 category 全唐诗 puts before a title (`横吹曲辞 出塞`): the same poem then appears under two titles. */
export const YUEFU_PREFIX = /^(?:郊庙|燕射|鼓吹|横吹|相和|清商|舞曲|琴曲|杂曲|近代曲|杂歌谣|新乐府)[曲歌]?辞\s*/u;

interface PoemLike {
  title?: unknown;
  author?: unknown;
  lines?: unknown;
}

/**
 * Pairs of poems that are one poem in two editions: their texts differ only in variant characters or a few words
 * (`黄河远上` / `黄砂直上`), so the exact duplicate check misses them. Candidates share a phrase of five or more
 * characters; a pair counts when at least 60 % of the shorter text's character pairs (bigrams) occur in the other.
 * Exact duplicates (same text once punctuation is removed) are left to the exact check. `[earlier, later]`, 0-based.
 */
export function findSamePoems(items: readonly PoemLike[]): Array<[number, number]> {
  const texts = items.map((p) => (Array.isArray(p.lines) ? p.lines.filter((l) => typeof l === 'string') : []));
  const bigrams = texts.map((lines) => {
    const t = normaliseText(lines.join(''));
    const set = new Set<string>();
    for (let i = 0; i + 1 < t.length; i++) set.add(t.slice(i, i + 2));
    return { text: t, set };
  });
  const byPhrase = new Map<string, number[]>();
  const pairs: Array<[number, number]> = [];
  texts.forEach((lines, i) => {
    const candidates = new Set<number>();
    const phrases = new Set(
      lines
        .flatMap((l) => l.split(/[\p{P}\p{S}\s]+/u))
        .map(normaliseText)
        .filter((ph) => [...ph].length >= 5),
    );
    for (const ph of phrases) {
      const seen = byPhrase.get(ph);
      if (seen) for (const j of seen) candidates.add(j);
      else byPhrase.set(ph, []);
      byPhrase.get(ph)!.push(i);
    }
    const a = bigrams[i];
    for (const j of [...candidates].sort((x, y) => x - y)) {
      const b = bigrams[j];
      if (a.text === b.text) continue;
      const [small, large] = a.set.size <= b.set.size ? [a.set, b.set] : [b.set, a.set];
      if (small.size === 0 || large.size > small.size * 2) continue;
      let shared = 0;
      for (const g of small) if (large.has(g)) shared++;
      if (shared / small.size >= 0.6) pairs.push([j, i]);
    }
  });
  return pairs;
}

/** An HTML entity left from a scraped page: `&amp;`, `&#39;`, `&nbsp;`. */
const HTML_ENTITY = /&(?:#\d+|#x[\da-f]+|[a-z][a-z\d]{1,31});/i;
/** Text standing in for a sentence nobody wrote yet. */
const PLACEHOLDER = /^(?:todo|tbd|fixme|x{3,}|test|测试|待补充?|暂无|占位|null|undefined|n\/a|lorem ipsum.*)$/i;

/** A hitokoto sentence: whole (not cut off at a comma), no HTML entities or placeholders, from_who null when unknown. */
function lintSentence(item: Item, add: (field: string, message: string) => void) {
  const { content, from, from_who: fromWho } = item;
  for (const [field, value] of [
    ['content', content],
    ['from', from],
  ] as const) {
    if (typeof value !== 'string') continue;
    if (HTML_ENTITY.test(value)) add(field, `含 HTML 实体（如 &amp;、&#39;），应写成字符本身：“${value.slice(0, 40)}”`);
    if (PLACEHOLDER.test(value.trim())) add(field, `是占位文字，不是内容：“${value}”`);
  }
  if (typeof content === 'string' && /(?:^[，。、；：！？,.;:!?]|[，、；：,;:]$)/.test(content))
    add('content', `句子不完整（以标点开头，或止于逗号、顿号、分号、冒号）：“${content.slice(0, 40)}”`);
  if (fromWho === '') add('from_who', '为空字符串：不知道是谁说的时应为 null');
}

/** Problems of a list of items (rows 1-based), duplicates within the list included. */
export function lintItems(lib: LibraryDef, items: Item[]): LintProblem[] {
  const problems: LintProblem[] = [];
  const name = (p: PoemLike) => `${String(p.author)}《${String(p.title)}》`;
  const twoAuthors = (j: number, i: number): LintProblem => {
    const [a, b] = [items[j], items[i]] as PoemLike[];
    return {
      row: i + 1,
      field: 'author',
      message: `与第 ${j + 1} 行是同一首诗，却署了两位作者（${name(a)} / ${name(b)}）：只保留可靠的署名`,
    };
  };
  if (lib.name === 'poems')
    for (const [j, i] of findSamePoems(items)) {
      const [a, b] = [items[j], items[i]] as PoemLike[];
      problems.push(
        a.author === b.author
          ? {
              row: i + 1,
              field: 'lines',
              message: `与第 ${j + 1} 行是同一首诗的两个版本（${name(a)} / ${name(b)}）：同一首诗只收一次`,
            }
          : twoAuthors(j, i),
      );
    }
  const seen = new Map<string, number>();
  items.forEach((item, i) => {
    for (const p of lintItem(lib, item)) problems.push({ ...p, row: i + 1 });
    const key = duplicateKey(lib, item);
    if (key === undefined || key === '') return;
    const first = seen.get(key);
    if (first !== undefined && lib.name === 'poems' && items[first - 1].author !== item.author)
      problems.push(twoAuthors(first - 1, i));
    else if (first !== undefined)
      problems.push({
        row: i + 1,
        field: lib.name === 'poems' ? 'lines' : lib.uniqueField!,
        message: `与第 ${first} 行重复`,
      });
    else seen.set(key, i + 1);
  });
  return problems.sort((x, y) => x.row - y.row);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/u;

/**
 * Problems of a shipped seed file's ids: every row needs a fixed, unique UUID, or each installation seeds it under a
 * random one and the same poem has a different `poemId` on every server.
 */
export function lintSeedIds(items: Item[]): LintProblem[] {
  const problems: LintProblem[] = [];
  const seen = new Map<string, number>();
  items.forEach((item, i) => {
    const id = item.id;
    if (typeof id !== 'string' || !UUID.test(id))
      problems.push({ row: i + 1, field: 'id', message: '缺少固定的 id（应为小写 UUID）：每次安装都会随机生成一个' });
    else if (seen.has(id)) problems.push({ row: i + 1, field: 'id', message: `id 与第 ${seen.get(id)} 行重复` });
    else seen.set(id, i + 1);
  });
  return problems;
}
