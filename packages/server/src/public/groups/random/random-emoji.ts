/**
 * Random emoji with Chinese names, from `emojibase-data` (MIT): the zh locale for names and keywords, the en locale
 * for English names, meta/groups.json for the group and subgroup keys. Pure: no HTTP framework.
 */
import { createRequire } from 'node:module';
import { paramError } from '../../../errors.js';
import type { Rng } from '../../../shared/rng.js';

interface EmojibaseEmoji {
  label: string;
  hexcode: string;
  emoji: string;
  tags?: string[];
  group?: number;
  subgroup?: number;
  version: number;
}

export interface EmojiEntry {
  emoji: string;
  name: string;
  nameEn: string;
  group: string;
  groupName: string;
  subgroup: string;
  subgroupName: string;
  /** Every code point of the fully qualified sequence, `U+1F600` style (variation selectors and ZWJ included). */
  codePoints: string[];
  /** emojibase's hexcode (the sequence without emoji-presentation selectors), e.g. `263A`. */
  hexcode: string;
  keywords: string[];
  /** Emoji version that introduced it. */
  version: number;
}

/** Unicode CLDR's Chinese names of the groups; `component` (skin tones, hair) is not an emoji to pick and is left out. */
export const EMOJI_GROUPS = {
  'smileys-emotion': '笑脸和情感',
  'people-body': '人物和身体',
  'animals-nature': '动物和自然',
  'food-drink': '食物和饮料',
  'travel-places': '旅行和地点',
  activities: '活动',
  objects: '物品',
  symbols: '符号',
  flags: '旗帜',
} as const;

export type EmojiGroup = keyof typeof EMOJI_GROUPS;

// The zh subgroup names emojibase ships are partly traditional or mistranslated (light-video → 轻视频); the project's own.
const SUBGROUP_ZH: Record<string, string> = {
  'face-smiling': '笑脸',
  'face-affection': '示爱的脸',
  'face-tongue': '吐舌的脸',
  'face-hand': '带手的脸',
  'face-neutral-skeptical': '中性与怀疑的脸',
  'face-sleepy': '困倦的脸',
  'face-unwell': '不适的脸',
  'face-hat': '戴帽子的脸',
  'face-glasses': '戴眼镜的脸',
  'face-concerned': '担忧的脸',
  'face-negative': '负面情绪的脸',
  'face-costume': '装扮的脸',
  'cat-face': '猫脸',
  'monkey-face': '猴脸',
  heart: '心',
  emotion: '情感',
  'hand-fingers-open': '张开手指的手',
  'hand-fingers-partial': '部分手指',
  'hand-single-finger': '单根手指',
  'hand-fingers-closed': '握拳的手',
  hands: '双手',
  'hand-prop': '手持物品',
  'body-parts': '身体部位',
  person: '人',
  'person-gesture': '做手势的人',
  'person-role': '职业与角色',
  'person-fantasy': '幻想人物',
  'person-activity': '人物活动',
  'person-sport': '运动中的人',
  'person-resting': '休息的人',
  family: '家庭',
  'person-symbol': '人物符号',
  'animal-mammal': '哺乳动物',
  'animal-bird': '鸟类',
  'animal-amphibian': '两栖动物',
  'animal-reptile': '爬行动物',
  'animal-marine': '海洋动物',
  'animal-bug': '虫类',
  'plant-flower': '花',
  'plant-other': '其他植物',
  'food-fruit': '水果',
  'food-vegetable': '蔬菜',
  'food-prepared': '熟食',
  'food-asian': '亚洲食物',
  'food-marine': '海鲜',
  'food-sweet': '甜食',
  drink: '饮料',
  dishware: '餐具',
  'place-map': '地图',
  'place-geographic': '地理',
  'place-building': '建筑',
  'place-religious': '宗教场所',
  'place-other': '其他地点',
  'transport-ground': '陆路交通',
  'transport-water': '水路交通',
  'transport-air': '航空',
  hotel: '酒店',
  time: '时间',
  'sky-weather': '天空与天气',
  event: '节日与活动',
  'award-medal': '奖项与奖牌',
  sport: '体育',
  game: '游戏',
  'arts-crafts': '艺术与手工',
  clothing: '服饰',
  sound: '声音',
  music: '音乐',
  'musical-instrument': '乐器',
  phone: '电话',
  computer: '电脑',
  'light-video': '灯光与影像',
  'book-paper': '书本与纸张',
  money: '钱',
  mail: '邮件',
  writing: '书写',
  office: '办公',
  lock: '锁',
  tool: '工具',
  science: '科学',
  medical: '医疗',
  household: '家居用品',
  'other-object': '其他物品',
  'transport-sign': '交通标志',
  warning: '警告',
  arrow: '箭头',
  religion: '宗教',
  zodiac: '星座',
  'av-symbol': '影音符号',
  gender: '性别',
  math: '数学',
  punctuation: '标点',
  currency: '货币',
  'other-symbol': '其他符号',
  keycap: '键帽',
  alphanum: '字母与数字',
  geometric: '几何图形',
  flag: '旗帜',
  'country-flag': '国家和地区旗帜',
  'subdivision-flag': '地区旗帜',
};

const codePointsOf = (emoji: string) =>
  [...emoji].map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);

export interface EmojiTable {
  all: EmojiEntry[];
  byGroup: Map<EmojiGroup, EmojiEntry[]>;
  /** Every accepted spelling of a group (key, our Chinese name, emojibase's Chinese name) → key. */
  aliases: Map<string, EmojiGroup>;
}

/** Reads the emojibase files once (about 1,900 emoji; the caller keeps the table). */
export function loadEmojiTable(): EmojiTable {
  const require = createRequire(import.meta.url);
  const zh = require('emojibase-data/zh/data.json') as EmojibaseEmoji[];
  const en = require('emojibase-data/en/data.json') as EmojibaseEmoji[];
  const meta = require('emojibase-data/meta/groups.json') as {
    groups: Record<string, string>;
    subgroups: Record<string, string>;
  };
  const zhMessages = require('emojibase-data/zh/messages.json') as {
    groups: { key: string; message: string }[];
    subgroups: { key: string; message: string }[];
  };
  const english = new Map(en.map((e) => [e.hexcode, e.label]));
  const zhSub = new Map(zhMessages.subgroups.map((s) => [s.key, s.message]));

  const all: EmojiEntry[] = [];
  for (const e of zh) {
    // No group: the regional indicator letters; `component`: skin tones and hair styles — parts, not emoji to send.
    if (e.group === undefined || e.subgroup === undefined) continue;
    const group = meta.groups[e.group] as EmojiGroup;
    if (!(group in EMOJI_GROUPS)) continue;
    const subgroup = meta.subgroups[e.subgroup];
    all.push({
      emoji: e.emoji,
      name: e.label,
      nameEn: english.get(e.hexcode) ?? e.label,
      group,
      groupName: EMOJI_GROUPS[group],
      subgroup,
      subgroupName: SUBGROUP_ZH[subgroup] ?? zhSub.get(subgroup) ?? subgroup,
      codePoints: codePointsOf(e.emoji),
      hexcode: e.hexcode,
      keywords: e.tags ?? [],
      version: e.version,
    });
  }
  const byGroup = new Map<EmojiGroup, EmojiEntry[]>();
  for (const e of all) {
    const list = byGroup.get(e.group as EmojiGroup) ?? [];
    if (list.length === 0) byGroup.set(e.group as EmojiGroup, list);
    list.push(e);
  }
  const aliases = new Map<string, EmojiGroup>();
  for (const [key, name] of Object.entries(EMOJI_GROUPS) as [EmojiGroup, string][]) {
    aliases.set(key, key);
    aliases.set(name, key);
  }
  for (const m of zhMessages.groups)
    if (m.key in EMOJI_GROUPS && !aliases.has(m.message)) aliases.set(m.message, m.key as EmojiGroup);
  return { all, byGroup, aliases };
}

/** The group a parameter names (key in any case, or a Chinese name); unknown is an error listing the choices. */
export function resolveEmojiGroup(table: EmojiTable, raw: string): EmojiGroup {
  const hit = table.aliases.get(raw.trim()) ?? table.aliases.get(raw.trim().toLowerCase());
  if (!hit) {
    const list = Object.entries(EMOJI_GROUPS)
      .map(([k, v]) => `${k}（${v}）`)
      .join('、');
    throw paramError('group', `应为以下分组之一：${list}`, raw);
  }
  return hit;
}

/** `count` emoji, all different while the pool lasts (a partial Fisher–Yates shuffle), then drawn again. */
export function randomEmoji(rng: Rng, table: EmojiTable, count: number, group?: EmojiGroup): EmojiEntry[] {
  const pool = group ? table.byGroup.get(group)! : table.all;
  const out: EmojiEntry[] = [];
  let order: number[] = [];
  for (let i = 0; i < count; i++) {
    if (order.length === 0) order = pool.map((_, k) => k);
    const k = rng.int(order.length);
    out.push(pool[order[k]]);
    order[k] = order[order.length - 1];
    order.pop();
  }
  return out;
}
