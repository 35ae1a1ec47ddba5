import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { LookupError } from '../../../errors.js';
import { lookupRoute } from '../../platform/lookup-platform.js';
import { literalUnion } from '../../../shared/literal-union.js';
import { answersPerItem, perObject } from '../../../shared/memo.js';
import { pickRandom } from '../../shared/pick.js';
import { candidates, render, MOOD_STYLES, type MoodQuote, type MoodStyle } from './mood-quotes.js';

const styles = Object.keys(MOOD_STYLES) as MoodStyle[];

const answerOf = (pick: MoodQuote, name?: string) => ({
  id: pick.id,
  style: pick.style,
  styleName: MOOD_STYLES[pick.style],
  content: render(pick, name),
});
/** Name-less answers, one per quote of a content snapshot (an edit makes new quotes): serialised once (stableData). */
const namelessAnswerOf = answersPerItem((pick: MoodQuote) => answerOf(pick));

/** The quotes a request draws from, worked out once per snapshot, style and whether a name is given. */
const pools = perObject<readonly MoodQuote[], MoodQuote[]>();
const poolOf = (all: readonly MoodQuote[], style?: MoodStyle, name?: string) =>
  pools(all, `${style ?? ''}|${name ? 'named' : ''}`, () => candidates(all, style, name));

export default async function moodQuoteRoute(app: FastifyInstance) {
  lookupRoute(app, {
    path: '/mood-quote',
    zh: '按风格（日记、毒鸡汤、彩虹屁、情话、文案）随机返回一条心情语录。',
    summary: '心情语录 Mood quote',
    description:
      'A random quote in one of five styles: `diary` 舔狗日记, `toxic` 毒鸡汤, `flattery` 彩虹屁, `love` 土味情话, `caption` 朋友圈文案; omitted = any style. ' +
      '`name` (flattery) addresses someone: only templates with a name slot are used. Served from the content library (editable in the admin app).',
    query: Type.Object({
      style: Type.Optional(literalUnion(styles, { description: 'Quote style; omitted = any' })),
      name: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 20,
          description: 'Name to address (flattery templates)',
          examples: ['小明'],
        }),
      ),
    }),
    data: Type.Object(
      {
        id: Type.String(),
        style: Type.String({ description: 'diary | toxic | flattery | love | caption' }),
        styleName: Type.String({ description: 'Chinese name of the style' }),
        content: Type.String(),
      },
      { examples: [{ id: '…', style: 'flattery', styleName: '彩虹屁', content: '小明的笑容是我见过最好看的风景' }] },
    ),
    stableData: true,
    handler: (q) => {
      const pick = pickRandom(poolOf(app.content.items('mood-quotes'), q.style, q.name));
      if (!pick)
        throw new LookupError(`心情语录库中没有${q.style ? `风格 ${q.style} 的` : ''}内容：请在管理后台添加`, 'server');
      // A quote addressed to a given name is made afresh; without one, each quote's answer is made once.
      return q.name ? answerOf(pick, q.name) : namelessAnswerOf(pick);
    },
  });
}
