import { describe, expect, it } from 'vitest';
import { LIBRARIES, libraryByName } from '../catalogue/content-libraries.js';
import { lintItem, lintItems, lintSeedIds } from './content-lint.js';
import { readDataJson } from '../data-files.js';

const poems = libraryByName.get('poems')!;
const poem = (extra: object = {}) => ({
  title: '静夜思',
  author: '李白',
  dynasty: '唐',
  lines: ['床前明月光，疑是地上霜。', '举头望明月，低头思故乡。'],
  ...extra,
});
const messages = (item: object) =>
  lintItem(poems, item as Record<string, unknown>).map((p) => `${p.field}: ${p.message}`);

describe('every shipped content library passes the data lint', () => {
  it.each(LIBRARIES.map((lib) => [lib.name, lib] as const))('%s', (_name, lib) => {
    const raw = readDataJson(lib.seedFile);
    const items = (lib.fromSeedFile ? lib.fromSeedFile(raw) : (raw ?? [])) as Array<Record<string, unknown>>;
    const problems = lintItems(lib, items).map((p) => `row ${p.row} ${p.field}: ${p.message}`);
    expect(problems.slice(0, 20)).toEqual([]);
  });

  it.each(LIBRARIES.filter((lib) => !lib.fromSeedFile).map((lib) => [lib.name, lib] as const))(
    '%s: every shipped row has a fixed id, so every installation serves it under the same id',
    (_name, lib) => {
      const items = (readDataJson(lib.seedFile) ?? []) as Array<Record<string, unknown>>;
      expect(lintSeedIds(items).slice(0, 5)).toEqual([]);
    },
  );
});

describe('the data lint', () => {
  it('accepts a clean poem', () => {
    expect(messages(poem())).toEqual([]);
  });

  it('finds empty and punctuation-only entries', () => {
    expect(messages(poem({ title: ' ' }))).toEqual([expect.stringMatching(/^title: 内容为空/)]);
    expect(messages(poem({ lines: ['。'] }))).toEqual([expect.stringMatching(/^lines\/0: 只有标点/)]);
  });

  it('finds editorial brackets, lost characters and collation notes', () => {
    expect(messages(poem({ lines: ['[妆]罢低声问夫壻，画眉深浅入时无。'] }))).toEqual([
      expect.stringMatching(/^lines\/0: 含校勘/),
    ]);
    expect(messages(poem({ author: '杨□' })).join()).toMatch(/author: 含校勘.*author: 作者应是人名/s);
    expect(messages(poem({ lines: ['官看巾帽整，妾映点（一作「美」）妆成。'] }))).toEqual([
      expect.stringMatching(/^lines\/0: 诗句中夹有校注/),
    ]);
    expect(messages(poem({ author: '史{隽乃=冏}之' })).length).toBeGreaterThan(0);
  });

  it('checks dynasty and author', () => {
    expect(messages(poem({ author: '李煜', dynasty: '唐' }))).toEqual(['dynasty: 李煜 是五代人，不是唐']);
    expect(messages(poem({ author: '无名氏', dynasty: '大唐' }))).toEqual([
      expect.stringMatching(/^dynasty: 朝代应为/),
    ]);
    expect(messages(poem({ author: '王炎2' }))).toEqual([expect.stringMatching(/^author: 作者应是人名/)]);
  });

  it('finds an author cut to one character (向滈 shipped as 向)', () => {
    expect(messages(poem({ author: '向', dynasty: '宋' }))).toEqual([
      expect.stringMatching(/^author: 作者只有一个字“向”/),
    ]);
  });

  it('finds a lost line typed as 囗囗囗囗囗囗囗', () => {
    expect(messages(poem({ lines: ['才大不应成滞客，时危且喜是闲人。', '囗囗囗囗囗囗囗，岂能偏遣老风尘。'] }))).toEqual(
      [expect.stringMatching(/^lines\/1: 含校勘或缺字标记/)],
    );
  });

  it('finds quotation marks the wrong way round or left open, in a line or a title', () => {
    expect(messages(poem({ lines: ['问他何处最情浓。', '却道”小梅摇落、不禁风。“'] }))).toEqual([
      expect.stringMatching(/^lines\/1: 引号次序颠倒/),
    ]);
    expect(messages(poem({ title: '凉州词二首” 二' }))).toEqual([expect.stringMatching(/^title: 引号次序颠倒/)]);
    expect(messages(poem({ lines: ['却道“小梅摇落、不禁风。'] }))).toEqual([
      expect.stringMatching(/^lines\/0: 引号未闭合/),
    ]);
    expect(messages(poem({ lines: ['却道“小梅摇落、不禁风。”'] }))).toEqual([]);
  });

  // Two editions of one poem: the exact check misses them because a few characters differ.
  const liangzhou = {
    author: '王之涣',
    lines: ['黄河远上白云间，一片孤城万仞山。', '羌笛何须怨杨柳，春光不度玉门关。'],
  };
  const chusai = { author: '王之涣', lines: ['黄砂直上白云间，一片孤城万仞山。', '羌笛何须怨杨柳，春风不度玉门关。'] };

  it('finds one poem twice under one author, once with a 乐府 category before its title', () => {
    const problems = lintItems(poems, [
      poem({ ...liangzhou, title: '凉州词二首 一' }),
      poem({ ...chusai, title: '横吹曲辞 出塞' }),
    ]);
    expect(problems).toEqual([
      {
        row: 2,
        field: 'lines',
        message: expect.stringMatching(
          /^与第 1 行是同一首诗的两个版本（王之涣《凉州词二首 一》 \/ 王之涣《横吹曲辞 出塞》）/,
        ),
      },
    ]);
  });

  it('finds one poem under two authors (《赤壁》 under 杜牧 and 李商隐)', () => {
    const problems = lintItems(poems, [
      poem({
        title: '赤壁',
        author: '李商隐',
        lines: ['折戟沉沙铁未销，自将磨洗认前朝。', '东风不与周郎便，铜雀春深锁二乔。'],
      }),
      poem({
        title: '赤壁',
        author: '杜牧',
        lines: ['折戟沉沙铁未销，自将磨洗认前朝。', '东风不与周郎便，铜雀春深鏁二乔。'],
      }),
    ]);
    expect(problems).toEqual([
      {
        row: 2,
        field: 'author',
        message: expect.stringMatching(/^与第 1 行是同一首诗，却署了两位作者（李商隐《赤壁》 \/ 杜牧《赤壁》）/),
      },
    ]);
  });

  it('does not take two poems that share a phrase for one poem', () => {
    const problems = lintItems(poems, [
      poem({
        title: '出塞',
        author: '王昌龄',
        lines: ['秦时明月汉时关，万里长征人未还。', '但使龙城飞将在，不教胡马度阴山。'],
      }),
      poem({
        title: '送别',
        author: '某人',
        lines: ['一片孤城万仞山，长亭古道夕阳间。', '劝君更尽杯中酒，莫向天涯问客还。'],
      }),
      poem(liangzhou),
    ]);
    expect(problems).toEqual([]);
  });

  it('finds shipped rows without a fixed id, or with one another row has', () => {
    const id = '67089b75-d4fc-5a3a-a02c-8c8111c4b124';
    expect(lintSeedIds([{ id, ...poem() }, poem(), { id, ...poem() }])).toEqual([
      { row: 2, field: 'id', message: expect.stringMatching(/^缺少固定的 id/) },
      { row: 3, field: 'id', message: 'id 与第 1 行重复' },
    ]);
  });

  it('finds duplicates that differ only in punctuation or spacing', () => {
    const problems = lintItems(poems, [
      poem(),
      poem({ title: '夜思', lines: ['床前明月光 疑是地上霜', '举头望明月 低头思故乡'] }),
    ]);
    expect(problems).toEqual([{ row: 2, field: 'lines', message: '与第 1 行重复' }]);
    const jokes = libraryByName.get('jokes')!;
    expect(lintItems(jokes, [{ content: '一个笑话。' }, { content: '一个笑话！' }])).toHaveLength(1);
  });

  it('finds duplicates that differ only in variant characters (天涯若比邻 / 天涯若比隣)', () => {
    const hitokoto = libraryByName.get('hitokoto')!;
    const row = (content: string) => ({ type: 'i', content, from: '送杜少府之任蜀州', from_who: '王勃' });
    expect(lintItems(hitokoto, [row('海内存知己，天涯若比邻。'), row('海内存知己，天涯若比隣。')])).toEqual([
      { row: 2, field: 'content', message: '与第 1 行重复' },
    ]);
    const problems = lintItems(poems, [
      poem({ lines: ['一身转战三千里，一剑曾当百万师。'] }),
      poem({ title: '老将行', lines: ['一身转战三千里，一劒曾当百万师。'] }),
    ]);
    expect(problems).toEqual([{ row: 2, field: 'lines', message: '与第 1 行重复' }]);
  });

  it('finds a half-line that lost a character in the source (不容凡鸟坐，应欲俟栖。)', () => {
    const lost = poem({
      title: '敦煌廿咏（并序） 十八、相似树咏',
      author: '无名氏',
      lines: [
        '两树夹招提，三春引影低。',
        '叶中微有字，阶下已成蹊。',
        '含气同修短，分条德且齐。',
        '不容凡鸟坐，应欲俟栖。',
      ],
    });
    expect(messages(lost)).toEqual(['lines/3: 这一句比全诗其他句少一个字，像是底本缺字：“不容凡鸟坐，应欲俟栖。”']);
    // 乐府's 君不见 lines are a form, not a loss; nor is a ci's uneven metre.
    const yuefu = poem({
      title: '塞下曲',
      author: '高适',
      lines: ['君不见芳树枝，春花落尽蜂不窥。', '君不见梁上泥，秋风始高燕不栖。', '荡子从军事征战，蛾眉蝉鬓不重妍。'],
    });
    expect(messages(yuefu)).toEqual([]);
    expect(messages(poem({ title: '如梦令', lines: ['知否，知否？应是绿肥红瘦。'] }))).toEqual([]);
  });

  it('leaves template placeholders such as {name} alone', () => {
    expect(
      lintItem(libraryByName.get('mood-quotes')!, { style: 'flattery', content: '{name}一笑，春天都不好意思开花了。' }),
    ).toEqual([]);
  });
});

describe('the data lint of hitokoto sentences', () => {
  const hitokoto = libraryByName.get('hitokoto')!;
  const sentence = (extra: object = {}) => ({
    type: 'k',
    content: '学而不思则罔，思而不学则殆。',
    from: '论语·为政',
    from_who: '孔子',
    creator: 'tianji',
    commit_from: 'tianji',
    ...extra,
  });
  const problems = (extra: object) => lintItem(hitokoto, sentence(extra)).map((p) => `${p.field}: ${p.message}`);

  it('accepts a whole sentence, and null for an unknown speaker', () => {
    expect(problems({})).toEqual([]);
    expect(problems({ from_who: null })).toEqual([]);
  });

  it('finds sentences cut off, HTML entities, placeholders and an empty from_who', () => {
    expect(problems({ content: '学而不思则罔，' })).toEqual([expect.stringMatching(/^content: 句子不完整/)]);
    expect(problems({ content: '，思而不学则殆。' })).toEqual([expect.stringMatching(/^content: 句子不完整/)]);
    expect(problems({ content: 'Tom &amp; Jerry' })).toEqual([expect.stringMatching(/^content: 含 HTML 实体/)]);
    expect(problems({ from: '&#12298;论语&#12299;' })).toEqual([expect.stringMatching(/^from: 含 HTML 实体/)]);
    expect(problems({ content: 'TODO' })).toEqual([expect.stringMatching(/^content: 是占位文字/)]);
    expect(problems({ from: '待补充' })).toEqual([expect.stringMatching(/^from: 是占位文字/)]);
    expect(problems({ from_who: '' })).toEqual(['from_who: 为空字符串：不知道是谁说的时应为 null']);
  });
});
