import type { FastifyInstance } from 'fastify';
import { Type, type TObject } from '@sinclair/typebox';
import { LookupError } from '../../../errors.js';
import { lookupRoute } from '../../platform/lookup-platform.js';
import { libraryByName } from '../../../catalogue/content-libraries.js';
import { DailyQuery, resolveDate } from '../../shared/daily-query.js';
import { answersPerItem } from '../../../shared/memo.js';
import { pickForDay, pickRandom } from '../../shared/pick.js';

/** Daily endpoints that hand out one item of a content library; the data shape is the library's own item. */
const DAILY_TEXTS: Array<{
  path: string;
  library: string;
  summary: string;
  zh: string;
  example: Record<string, unknown>;
}> = [
  {
    path: '/trivia',
    zh: '每日冷知识：当天人人相同的一条冷知识，可指定日期或随机。',
    library: 'trivia',
    summary: '每日冷知识 Daily trivia',
    example: { category: '动物', content: '章鱼有三颗心脏。' },
  },
  {
    path: '/joke',
    zh: '每日笑话：当天人人相同的一则笑话，可指定日期或随机。',
    library: 'jokes',
    summary: '每日笑话 Daily joke',
    example: { content: '…' },
  },
  {
    path: '/tongue-twister',
    zh: '每日绕口令：当天人人相同的一段绕口令，可指定日期或随机。',
    library: 'tongue-twisters',
    summary: '每日绕口令 Daily tongue twister',
    example: { title: '吃葡萄', content: '吃葡萄不吐葡萄皮，不吃葡萄倒吐葡萄皮。' },
  },
  {
    path: '/xiehouyu',
    zh: '每日歇后语：当天人人相同的一条歇后语，可指定日期或随机。',
    library: 'xiehouyu',
    summary: '每日歇后语 Daily two-part allegorical saying',
    example: { riddle: '外甥打灯笼', answer: '照舅（旧）' },
  },
];

export default async function dailyTextRoutes(app: FastifyInstance) {
  for (const t of DAILY_TEXTS) {
    const lib = libraryByName.get(t.library)!;
    const data = Type.Composite(
      [
        Type.Object({
          id: Type.String({ format: 'uuid' }),
          date: Type.String({ description: 'The day this pick belongs to (YYYY-MM-DD)' }),
        }),
        lib.schema as TObject,
      ],
      {
        examples: [{ id: '3f1c…', date: '2026-11-21', ...t.example }],
      },
    );
    const answerOf = answersPerItem((item: object, date: string) => ({ ...item, date }));
    lookupRoute(app, {
      path: t.path,
      summary: t.summary,
      zh: t.zh,
      description: `The same ${lib.label} for everyone on a given day (Asia/Shanghai); \`date\` asks for another day, \`random=true\` picks at random. Served from the content library (editable in the admin app).`,
      query: Type.Object(DailyQuery),
      data,
      stableData: true,
      handler: (q) => {
        const date = resolveDate(q.date);
        const items = app.content.items(lib.name);
        const item = q.random ? pickRandom(items) : pickForDay(items, date, lib.name);
        if (!item) throw new LookupError(`${lib.label}库为空：请在管理后台添加内容`, 'server');
        return answerOf(item, date) as never;
      },
    });
  }
}
