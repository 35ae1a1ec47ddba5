import { Type, type Static, type TObject } from '@sinclair/typebox';
import { SafeLink } from './safe-link.js';

/**
 * Every text library the admin can manage. One definition drives the database seed, the admin routes
 * (its menu in catalogue/index.ts), validation of imports, CSV columns and the public endpoints' snapshot.
 */
export interface LibraryDef {
  /** URL segment and menu suffix: /api/admin/content/<name>, menu `contentMenuCode(name)` (catalogue/index.ts). */
  name: LibraryName;
  /** Menu label in the admin app, Chinese and English (the catalogue's menu names). */
  label: string;
  labelEn: string;
  icon: string;
  /** Schema of one item (without id). */
  schema: TObject;
  /** File under data/ the library is seeded from on first start. */
  seedFile: string;
  /** Fields the admin search matches. */
  searchFields: string[];
  /** Field that must be unique within the library, if any (import reports duplicates). */
  uniqueField?: string;
  /** Turns the seed file's JSON into items, when the file is not already an array of items. */
  fromSeedFile?: (raw: unknown) => Array<Record<string, unknown>>;
}

const s = (maxLength: number, extra: object = {}) => Type.String({ minLength: 1, maxLength, ...extra });
const date = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', 'x-hint': 'YYYY-MM-DD' });

export const HITOKOTO_TYPES = 'abcdefghijkl';

/**
 * The names of a coded field's values, in Chinese and English, carried by its schema as `x-names` (documentation
 * only: validation is unchanged). Clients show the names instead of the codes, and offer them in a select.
 */
type ValueNames = Record<string, { zh: string; en: string }>;

/** hitokoto.cn's sentence categories, a–l. */
export const HITOKOTO_TYPE_NAMES: ValueNames = {
  a: { zh: '动画', en: 'Anime' },
  b: { zh: '漫画', en: 'Comics' },
  c: { zh: '游戏', en: 'Games' },
  d: { zh: '文学', en: 'Literature' },
  e: { zh: '原创', en: 'Original' },
  f: { zh: '来自网络', en: 'From the web' },
  g: { zh: '其他', en: 'Other' },
  h: { zh: '影视', en: 'Film and TV' },
  i: { zh: '诗词', en: 'Poetry' },
  j: { zh: '网易云', en: 'NetEase Music' },
  k: { zh: '哲学', en: 'Philosophy' },
  l: { zh: '抖机灵', en: 'Wisecracks' },
};

/** The mood-quote styles. */
export const MOOD_STYLE_NAMES: ValueNames = {
  diary: { zh: '日记', en: 'Diary' },
  toxic: { zh: '毒鸡汤', en: 'Toxic chicken soup' },
  flattery: { zh: '彩虹屁', en: 'Flattery' },
  love: { zh: '情话', en: 'Love lines' },
  caption: { zh: '朋友圈文案', en: 'Captions' },
};

const namesHint = (names: ValueNames) =>
  Object.entries(names)
    .map(([code, n]) => `${code}（${n.zh}）`)
    .join('、');

export const HolidayBlockSchema = Type.Object(
  {
    name: s(20),
    start: date,
    end: date,
    work: Type.Array(date, { maxItems: 10, description: 'Make-up working days' }),
  },
  { additionalProperties: false },
);

/** One item of the hitokoto library. */
export const HitokotoItem = Type.Object(
  {
    type: Type.String({
      pattern: `^[${HITOKOTO_TYPES}]$`,
      'x-hint': `分类字母之一：${namesHint(HITOKOTO_TYPE_NAMES)}`,
      'x-names': HITOKOTO_TYPE_NAMES,
    }),
    content: s(500),
    from: s(100),
    // Null first: Fastify's validator coerces types, and with the string first a null became "" (which the data lint
    // refuses: an unknown author is null); this way an empty author is stored as null.
    from_who: Type.Union([Type.Null(), Type.String({ maxLength: 100 })]),
    creator: s(50),
    commit_from: s(50),
    // Provenance (issue 50): `tianji` (the project's own writing), `public-domain` (a public-domain text the project
    // transcribed; `from` names the work) or `npm:<package>@<version>` (extracted from that package). Every shipped
    // row has one (hitokoto-provenance.test.ts); an operator's own rows may leave it out.
    source: Type.Optional(
      Type.String({
        maxLength: 100,
        'x-hint':
          '出处与授权：tianji（本项目原创）、public-domain（公有领域作品）、npm:包名@版本（从该包提取），或自行写明出处与授权',
      }),
    ),
  },
  { additionalProperties: false },
);
export type HitokotoItem = Static<typeof HitokotoItem>;

/** One item of the poems library. */
export const PoemItem = Type.Object(
  {
    title: s(100),
    author: s(50),
    dynasty: s(10),
    lines: Type.Array(s(200), { minItems: 1, maxItems: 400 }),
    featured: Type.Optional(Type.String({ maxLength: 200, description: 'A well-known line to feature' })),
  },
  { additionalProperties: false },
);
export type PoemItem = Static<typeof PoemItem>;

/** One item of the trivia library. */
export const TriviaItem = Type.Object({ category: s(20), content: s(500) }, { additionalProperties: false });
export type TriviaItem = Static<typeof TriviaItem>;

/** One item of the jokes library. */
export const JokeItem = Type.Object({ content: s(1000) }, { additionalProperties: false });
export type JokeItem = Static<typeof JokeItem>;

/** One item of the tongue-twisters library. */
export const TongueTwisterItem = Type.Object({ title: s(50), content: s(1000) }, { additionalProperties: false });
export type TongueTwisterItem = Static<typeof TongueTwisterItem>;

/** One item of the xiehouyu library. */
export const XiehouyuItem = Type.Object({ riddle: s(50), answer: s(100) }, { additionalProperties: false });
export type XiehouyuItem = Static<typeof XiehouyuItem>;

/** One item of the mood-quotes library. */
export const MoodQuoteItem = Type.Object(
  {
    style: Type.Union(
      [
        Type.Literal('diary'),
        Type.Literal('toxic'),
        Type.Literal('flattery'),
        Type.Literal('love'),
        Type.Literal('caption'),
      ],
      { 'x-names': MOOD_STYLE_NAMES },
    ),
    content: s(500),
  },
  { additionalProperties: false },
);
export type MoodQuoteItem = Static<typeof MoodQuoteItem>;

/** One item of the wallpapers library. */
export const WallpaperItem = Type.Object(
  {
    date,
    title: s(100),
    description: Type.String({ maxLength: 500 }),
    url: SafeLink({ minLength: 1, maxLength: 1000, description: 'Absolute URL, or a path on this service' }),
    width: Type.Integer({ minimum: 1, maximum: 10000 }),
    height: Type.Integer({ minimum: 1, maximum: 10000 }),
    copyright: Type.String({ maxLength: 200 }),
  },
  { additionalProperties: false },
);
export type WallpaperItem = Static<typeof WallpaperItem>;

/** One item of the holidays library. */
export const HolidayYearItem = Type.Object(
  {
    year: Type.Integer({ minimum: 1949, maximum: 2200 }),
    holidays: Type.Array(HolidayBlockSchema, { minItems: 1, maxItems: 20 }),
  },
  { additionalProperties: false },
);
export type HolidayYearItem = Static<typeof HolidayYearItem>;

/** Each library's item schema by library name: what `ContentStore.items(name)` returns is typed from it. */
export const LIBRARY_ITEMS = {
  hitokoto: HitokotoItem,
  poems: PoemItem,
  trivia: TriviaItem,
  jokes: JokeItem,
  'tongue-twisters': TongueTwisterItem,
  xiehouyu: XiehouyuItem,
  'mood-quotes': MoodQuoteItem,
  wallpapers: WallpaperItem,
  holidays: HolidayYearItem,
} as const;
export type LibraryName = keyof typeof LIBRARY_ITEMS;
/** A stored item of library N as the public endpoints read it: its fields, its id and when it was added (ISO 8601). */
export type LibraryItem<N extends LibraryName> = Static<(typeof LIBRARY_ITEMS)[N]> & { id: string; created_at: string };

export const LIBRARIES: LibraryDef[] = [
  {
    name: 'hitokoto',
    label: '一言',
    labelEn: 'Hitokoto quotes',
    icon: 'quote',
    schema: HitokotoItem,
    seedFile: 'content/hitokoto.json',
    searchFields: ['content', 'from', 'from_who'],
    uniqueField: 'content',
  },
  {
    name: 'poems',
    label: '古诗词',
    labelEn: 'Poems',
    icon: 'feather',
    schema: PoemItem,
    seedFile: 'content/poems.json',
    searchFields: ['title', 'author', 'lines'],
  },
  {
    name: 'trivia',
    label: '冷知识',
    labelEn: 'Trivia',
    icon: 'lightbulb',
    schema: TriviaItem,
    seedFile: 'content/trivia.json',
    searchFields: ['content', 'category'],
    uniqueField: 'content',
  },
  {
    name: 'jokes',
    label: '笑话',
    labelEn: 'Jokes',
    icon: 'laugh',
    schema: JokeItem,
    seedFile: 'content/jokes.json',
    searchFields: ['content'],
    uniqueField: 'content',
  },
  {
    name: 'tongue-twisters',
    label: '绕口令',
    labelEn: 'Tongue twisters',
    icon: 'mic',
    schema: TongueTwisterItem,
    seedFile: 'content/tongue-twisters.json',
    searchFields: ['title', 'content'],
    uniqueField: 'content',
  },
  {
    name: 'xiehouyu',
    label: '歇后语',
    labelEn: 'Xiehouyu',
    icon: 'message-square-quote',
    schema: XiehouyuItem,
    seedFile: 'content/xiehouyu.json',
    searchFields: ['riddle', 'answer'],
    uniqueField: 'riddle',
  },
  {
    name: 'mood-quotes',
    label: '心情语录',
    labelEn: 'Mood quotes',
    icon: 'heart',
    schema: MoodQuoteItem,
    seedFile: 'content/mood-quotes.json',
    searchFields: ['content', 'style'],
    uniqueField: 'content',
  },
  {
    name: 'wallpapers',
    label: '每日壁纸',
    labelEn: 'Wallpapers',
    icon: 'image',
    schema: WallpaperItem,
    seedFile: 'content/wallpapers.json',
    searchFields: ['title', 'description', 'date'],
    uniqueField: 'date',
  },
  {
    name: 'holidays',
    label: '节假日安排',
    labelEn: 'Holiday schedules',
    icon: 'calendar-days',
    schema: HolidayYearItem,
    seedFile: 'holidays.json',
    // data/holidays.json is keyed by year: { "2025": [ {name, start, end, work} … ] }
    fromSeedFile: (raw) =>
      Object.entries(raw as Record<string, unknown[]>)
        .filter(([y]) => /^\d{4}$/.test(y))
        .map(([year, holidays]) => ({ year: Number(year), holidays })),
    searchFields: ['year'],
    uniqueField: 'year',
  },
];

export const libraryByName = new Map<string, LibraryDef>(LIBRARIES.map((l) => [l.name, l]));
