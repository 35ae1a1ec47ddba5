import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { LookupError } from '../../../errors.js';
import { lookupRoute } from '../../platform/lookup-platform.js';
import { DailyQuery, resolveDate } from '../../shared/daily-query.js';
import { answersPerItem } from '../../../shared/memo.js';
import { pickForDay, pickRandom } from '../../shared/pick.js';
import type { Poem } from './poem-index.js';
import { poemSource } from './poems.js';

const PoemSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  author: Type.String(),
  dynasty: Type.String({ examples: ['唐'] }),
  lines: Type.Array(Type.String(), { description: 'Full text, one couplet or phrase per line' }),
  featured: Type.String({ description: 'The line to feature (the opening couplet unless an editor chose another)' }),
});

export default async function poemRoute(app: FastifyInstance) {
  const source = poemSource(app);
  const answerOf = answersPerItem((poem: Poem, date: string) => ({
    date,
    ...poem,
    featured: poem.featured ?? poem.lines[0],
  }));
  lookupRoute(app, {
    path: '/poem',
    zh: '今日诗词：当天人人相同的一首古诗词，可指定日期或随机。',
    summary: '今日诗词 Poem of the day',
    description:
      'A classical poem (Tang and Song, simplified characters; extract of the MIT-licensed chinese-poetry collection, editable in the admin app): the same poem for everyone on a given day (Asia/Shanghai). `date` asks for another day, `random=true` picks at random.',
    query: Type.Object(DailyQuery),
    data: Type.Composite([Type.Object({ date: Type.String() }), PoemSchema]),
    stableData: true,
    handler: (q) => {
      const date = resolveDate(q.date);
      const poems = source.poems();
      const poem = q.random ? pickRandom(poems) : pickForDay(poems, date, 'poems');
      if (!poem) throw new LookupError('诗词库为空：请在管理后台添加诗词', 'server');
      return answerOf(poem, date);
    },
  });
}
