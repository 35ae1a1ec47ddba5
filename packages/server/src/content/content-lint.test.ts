import { describe, expect, it } from 'vitest';
import { LIBRARIES, libraryByName } from './libraries.js';
import { lintItem, lintItems } from './content-lint.js';
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

  it('finds duplicates that differ only in punctuation or spacing', () => {
    const problems = lintItems(poems, [
      poem(),
      poem({ title: '夜思', lines: ['床前明月光 疑是地上霜', '举头望明月 低头思故乡'] }),
    ]);
    expect(problems).toEqual([{ row: 2, field: 'lines', message: '与第 1 行重复' }]);
    const jokes = libraryByName.get('jokes')!;
    expect(lintItems(jokes, [{ content: '一个笑话。' }, { content: '一个笑话！' }])).toHaveLength(1);
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
