import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readDataJson } from '../src/data-files.js';
import type { Db } from '../src/db/index.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { describeEachDb, freshDb } from './helpers.js';

type Poem = { id?: string; title: string; author: string; dynasty: string; lines: string[]; featured?: string };

/** Poems exactly as the 5,670-poem file shipped them (ids where it had one; the others were seeded under random ids). */
const SHIPPED: Record<string, Poem> = {
  cutAuthor: {
    title: '青玉案',
    author: '向',
    dynasty: '宋',
    lines: [
      '别时抆泪花无语。',
      '但一味、教郎住。',
      '此日扁舟游远浦。',
      '雨晴云树。',
      '月斜烟树。',
      '目断家何许。',
      '红笺不寄相思句。',
      '人在潇湘雁回处。',
      '屈指归期秋已暮。',
      '万千里路。',
      '两三头绪。',
      '恨不飞将去。',
    ],
    featured: '别时抆泪花无语。',
  },
  unknownPoet: {
    title: '虞美人',
    author: '何',
    dynasty: '宋',
    lines: [
      '分香帕子揉蓝腻。',
      '欲去殷勤惠。',
      '重来直待牡丹时。',
      '只恐花知、知后故开迟。',
      '别来看尽闲桃李。',
      '日日阑干倚。',
      '催花无计问东风。',
      '梦作一双蝴蝶、绕芳丛。',
    ],
    featured: '分香帕子揉蓝腻。',
  },
  wrongAuthor: {
    id: 'ae660471-84bc-4a58-a438-005b8a99c3c1',
    title: '赤壁',
    author: '李商隐',
    dynasty: '唐',
    lines: ['折戟沉沙铁未销，自将磨洗认前朝。', '东风不与周郎便，铜雀春深锁二乔。'],
    featured: '折戟沉沙铁未销，自将磨洗认前朝。',
  },
  placeholder: {
    id: 'c14c68c7-d454-4a5c-8657-fb413db1591a',
    title: '无题',
    author: '卢纶',
    dynasty: '唐',
    lines: [
      '耻将名利托交亲，只向尊前乐此身。',
      '才大不应成滞客，时危且喜是闲人。',
      '高歌犹爱思归引，醉语惟夸漉酒巾。',
      '囗囗囗囗囗囗囗，岂能偏遣老风尘。',
    ],
    featured: '耻将名利托交亲，只向尊前乐此身。',
  },
  reversedQuotes: {
    title: '虞美人',
    author: '辛弃疾',
    dynasty: '宋',
    lines: [
      '夜深困倚屏风后。',
      '试请毛延寿。',
      '宝钗小立白翻香。',
      '旋唱新词犹误、笑持觞。',
      '四更山月寒侵席。',
      '歌舞催时日。',
      '问他何处最情浓。',
      '却道”小梅摇落、不禁风。“',
    ],
    featured: '夜深困倚屏风后。',
  },
  randomId: {
    title: '卜算子',
    author: '苏轼',
    dynasty: '宋',
    lines: [
      '蜀客到江南，长忆吴山好。',
      '吴蜀风流自古同，归去应须早。',
      '还与去年人，共藉西湖草。',
      '莫惜尊前仔细看，应是容颜老。',
    ],
    featured: '蜀客到江南，长忆吴山好。',
  },
  unchanged: {
    id: '927908c0-999f-4d3f-8192-d67d28f93576',
    title: '八阵图',
    author: '杜甫',
    dynasty: '唐',
    lines: ['功盖三分国，名高八阵图。', '江流石不转，遗恨失吞吴。'],
    featured: '功盖三分国，名高八阵图。',
  },
};
/** The same cut-author ci after an operator changed its featured line: an edit, so the migration leaves it. */
const EDITED: Poem = { ...SHIPPED.cutAuthor, featured: '人在潇湘雁回处。' };
/** A poem an operator added, with the defects the migration corrects in shipped rows: not the migration's to touch. */
const ADDED: Poem = {
  title: '自作',
  author: '向',
  dynasty: '宋',
  lines: ['却道”春来、花自开。“'],
  featured: '却道”春来、花自开。“',
};

const current = readDataJson<Array<Poem & { id: string }>>('content/poems.json')!;
const inFile = (author: string, title: string, firstLine: string) =>
  current.find((p) => p.author === author && p.title === title && p.lines[0] === firstLine)!;

describeEachDb('migration 0013 cleans the poems nobody edited', (dialect) => {
  let db: Db;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    db = await freshDb(dialect);
    await migrateToLatest(db, '0011-account-security');
    const rows = [
      ...Object.entries(SHIPPED).map(([key, poem]) => [key, poem] as const),
      ['edited', EDITED] as const,
      ['added', ADDED] as const,
    ].map(([key, { id, ...data }], i) => {
      ids[key] = id ?? randomUUID();
      const at = new Date(Date.UTC(2026, 0, 1, 0, 0, 0, i)).toISOString();
      return {
        id: ids[key],
        library: 'poems',
        data: JSON.stringify(data),
        search_text: '',
        created_at: at,
        updated_at: at,
      };
    });
    await db.kysely.insertInto('content_items').values(rows).execute();
    await db.kysely
      .insertInto('content_meta')
      .values({ library: 'poems', seeded_at: '2026-01-01T00:00:00.000Z', revision: 3 })
      .execute();
    await migrateToLatest(db);
  });
  afterAll(async () => {
    await db.close();
  });

  const rowsNow = async () =>
    new Map(
      (await db.kysely.selectFrom('content_items').selectAll().where('library', '=', 'poems').execute()).map((r) => [
        r.id,
        { ...(JSON.parse(r.data) as Poem), search: r.search_text, created: r.created_at, updated: r.updated_at },
      ]),
    );

  it('gives the cut author back (向 → 向滈) under the fixed id every installation has', async () => {
    const fixed = inFile('向滈', '青玉案', '别时抆泪花无语。');
    const rows = await rowsNow();
    expect(rows.has(ids.cutAuthor)).toBe(false);
    expect(rows.get(fixed.id)).toMatchObject({ author: '向滈', lines: SHIPPED.cutAuthor.lines });
    expect(rows.get(fixed.id)?.search).toContain('向滈');
    // Not an operator's edit: the row keeps its dates.
    expect(rows.get(fixed.id)?.updated).toBe(rows.get(fixed.id)?.created);
  });

  it('replaces a random id by the fixed one, the poem unchanged', async () => {
    const fixed = inFile('苏轼', '卜算子', '蜀客到江南，长忆吴山好。');
    const rows = await rowsNow();
    expect(fixed.id).not.toBe(ids.randomId);
    expect(rows.has(ids.randomId)).toBe(false);
    expect(rows.get(fixed.id)).toMatchObject({ title: '卜算子', author: '苏轼', lines: SHIPPED.randomId.lines });
  });

  it('turns reversed quotation marks', async () => {
    const rows = await rowsNow();
    const fixed = inFile('辛弃疾', '虞美人', '夜深困倚屏风后。');
    expect(rows.get(fixed.id)?.lines.at(-1)).toBe('却道“小梅摇落、不禁风。”');
  });

  it('removes the misattributed copy, the placeholder line and the ci whose poet is unknown', async () => {
    const rows = await rowsNow();
    for (const key of ['wrongAuthor', 'placeholder', 'unknownPoet'])
      expect([key, rows.has(ids[key])]).toEqual([key, false]);
  });

  it('leaves alone a poem already as shipped, an edited one and one an operator added', async () => {
    const rows = await rowsNow();
    const { id: _id, ...unchanged } = SHIPPED.unchanged;
    expect(rows.get(ids.unchanged)).toMatchObject(unchanged);
    expect(rows.get(ids.edited)).toMatchObject({ author: '向', featured: '人在潇湘雁回处。' });
    expect(rows.get(ids.added)).toMatchObject({ author: '向', lines: ADDED.lines });
    expect(rows.size).toBe(6);
  });

  it('bumps the library revision so running instances reload it', async () => {
    const meta = await db.kysely
      .selectFrom('content_meta')
      .selectAll()
      .where('library', '=', 'poems')
      .executeTakeFirst();
    expect(meta?.revision).toBe(4);
  });
});

describeEachDb('migration 0013 gives the holiday blocks their notice’s days, where nobody edited them', (dialect) => {
  let db: Db;
  const block = (name: string, start: string, end: string, work: string[] = []) => ({ name, start, end, work });
  const shipped2015 = [
    block('元旦', '2015-01-01', '2015-01-03', ['2015-01-04']),
    block('清明节', '2015-04-04', '2015-04-06'),
    block('中秋节', '2015-09-26', '2015-09-27'),
  ];
  // An operator already moved this block's end: an edit, left as it is.
  const edited2016 = [block('劳动节', '2016-04-30', '2016-05-03')];
  beforeAll(async () => {
    db = await freshDb(dialect);
    await migrateToLatest(db, '0011-account-security');
    const at = '2026-01-01T00:00:00.000Z';
    const row = (year: number, holidays: object[]) => ({
      id: randomUUID(),
      library: 'holidays',
      data: JSON.stringify({ year, holidays }),
      search_text: String(year),
      created_at: at,
      updated_at: at,
    });
    await db.kysely
      .insertInto('content_items')
      .values([row(2015, shipped2015), row(2016, edited2016)])
      .execute();
    await migrateToLatest(db);
  });
  afterAll(async () => {
    await db.close();
  });

  const year = async (y: number) => {
    const rows = await db.kysely.selectFrom('content_items').select('data').where('library', '=', 'holidays').execute();
    return rows.map((r) => JSON.parse(r.data) as { year: number; holidays: object[] }).find((r) => r.year === y)
      ?.holidays;
  };

  it('2015 中秋节 becomes 9月27日 only and 清明节 starts on 4月5日 (国办发明电〔2014〕28号)', async () => {
    expect(await year(2015)).toEqual([
      block('元旦', '2015-01-01', '2015-01-03', ['2015-01-04']),
      block('清明节', '2015-04-05', '2015-04-06'),
      block('中秋节', '2015-09-27', '2015-09-27'),
    ]);
  });

  it('leaves a block an operator edited as it is', async () => {
    expect(await year(2016)).toEqual(edited2016);
  });
});
