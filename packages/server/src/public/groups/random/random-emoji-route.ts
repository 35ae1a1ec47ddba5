import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { lookupRoute } from '../../platform/lookup-platform.js';
import { EMOJI_GROUPS, loadEmojiTable, randomEmoji, resolveEmojiGroup } from './random-emoji.js';
import { rngFor } from '../../../shared/rng.js';
import { SeedParam } from '../../shared/schemas.js';

const EmojiSchema = Type.Object({
  emoji: Type.String({ examples: ['😀'] }),
  name: Type.String({ description: 'Chinese name (emojibase zh / CLDR)', examples: ['嘿嘿'] }),
  nameEn: Type.String({ examples: ['grinning face'] }),
  group: Type.String({ description: 'Group key', examples: ['smileys-emotion'] }),
  groupName: Type.String({ examples: ['笑脸和情感'] }),
  subgroup: Type.String({ examples: ['face-smiling'] }),
  subgroupName: Type.String({ examples: ['笑脸'] }),
  codePoints: Type.Array(Type.String({ pattern: '^U\\+[0-9A-F]{4,6}$' }), {
    description: 'Every code point of the fully qualified sequence',
    examples: [['U+1F600']],
  }),
  hexcode: Type.String({ description: 'emojibase hexcode (without presentation selectors)', examples: ['1F600'] }),
  keywords: Type.Array(Type.String(), { description: 'Chinese keywords', examples: [['笑脸', '脸', '高兴']] }),
  version: Type.Number({ description: 'Emoji version that introduced it', examples: [1] }),
});

export default async function randomEmojiRoute(app: FastifyInstance) {
  const table = loadEmojiTable();
  const groups = Object.entries(EMOJI_GROUPS).map(
    ([k, v]) => `\`${k}\` ${v} (${table.byGroup.get(k as keyof typeof EMOJI_GROUPS)?.length ?? 0})`,
  );

  lookupRoute(app, {
    // Picks are entries of the emoji table (never copied): each is serialised once.
    stableData: true,
    path: '/random-emoji',
    zh: '随机返回表情符号及其中文名称、分类和 Unicode 码位。',
    summary: '随机表情 Random emoji',
    description: [
      `Random emoji with Chinese and English names, group and code points, from \`emojibase-data\` (MIT; ${table.all.length} emoji, skin-tone variants, components and lone regional indicators left out).`,
      '',
      `- \`group\`: a group key or its Chinese name — ${groups.join(', ')}; omitted = any.`,
      '- `count`: 1–100, default 1; all different while the group lasts.',
      '- `seed`: the same seed and parameters give the same emoji.',
    ].join('\n'),
    query: Type.Object({
      group: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 30,
          description: 'Group key or Chinese name',
          examples: ['animals-nature'],
        }),
      ),
      count: Type.Integer({
        minimum: 1,
        maximum: 100,
        default: 1,
        description: 'How many emoji (1–100)',
        examples: [5],
      }),
      seed: SeedParam,
    }),
    data: Type.Array(EmojiSchema),
    handler: (q) =>
      randomEmoji(
        rngFor(q.seed),
        table,
        q.count,
        q.group === undefined ? undefined : resolveEmojiGroup(table, q.group),
      ),
  });
}
