import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { LookupError } from '../../errors.js';
import {
  HITOKOTO_CATEGORIES,
  charLength,
  fileSentenceSource,
  hitokotoScript,
  parseTypes,
  pickHitokoto,
  type Sentence,
} from './hitokoto.js';

const s = (id: string, type: string, content: string): Sentence => ({
  id,
  type,
  content,
  from: '测试',
  from_who: null,
  creator: 'tianji',
  commit_from: 'tianji',
});
const library = [
  s('1', 'a', '短句'),
  s('2', 'a', '这是一句稍微长一点的话。'),
  s('3', 'k', '𠮷野家的😀'),
  s('4', 'i', '床前明月光'),
];
const source = { all: () => library };

describe('parseTypes', () => {
  it('reads comma-separated letters, tolerating spaces, case and repeats', () => {
    expect(parseTypes('a,b')).toEqual(['a', 'b']);
    expect(parseTypes(' A , k ,a')).toEqual(['a', 'k']);
  });
  it('means every category when empty or omitted', () => {
    expect(parseTypes(undefined)).toEqual(Object.keys(HITOKOTO_CATEGORIES));
    expect(parseTypes(',, ')).toHaveLength(12);
  });
  it('names every unknown letter once', () => {
    expect(() => parseTypes('a,m,zz,m')).toThrow(LookupError);
    expect(() => parseTypes('a,m,zz,m')).toThrow(/参数 type.*"m"、"zz"/);
  });
});

describe('pickHitokoto', () => {
  it('counts length in characters, so astral characters count once', () => {
    expect(charLength('𠮷野家的😀')).toBe(5);
    expect('𠮷野家的😀'.length).toBe(7);
    expect(pickHitokoto(source, { types: ['k'] })).toMatchObject({ id: '3', length: 5 });
  });

  it('keeps to the categories and the inclusive length bounds', () => {
    for (let i = 0; i < 20; i++) expect(pickHitokoto(source, { types: ['a'], minLength: 3 }).id).toBe('2');
    expect(pickHitokoto(source, { types: ['a', 'i'], minLength: 5, maxLength: 5 }).id).toBe('4');
    expect(pickHitokoto(source, { types: ['a'], maxLength: 2 }).id).toBe('1');
  });

  it('returns exactly the hitokoto fields, with from_who null when unknown', () => {
    expect(pickHitokoto(source, { types: ['i'] })).toEqual({
      id: '4',
      from: '测试',
      type: 'i',
      length: 5,
      content: '床前明月光',
      creator: 'tianji',
      from_who: null,
      commit_from: 'tianji',
    });
  });

  it('says which lengths exist when no sentence fits', () => {
    expect(() => pickHitokoto(source, { types: ['a'], minLength: 50, maxLength: 60 })).toThrow(
      /长度在 50 至 60 个字符之间.*现有句子长度为 2 至 12 个字符/,
    );
    expect(() => pickHitokoto(source, { types: ['a'], minLength: 50 })).toThrow(/长度不少于 50 个字符/);
  });

  it('rejects minLength above maxLength', () => {
    expect(() => pickHitokoto(source, { types: ['a'], minLength: 9, maxLength: 3 })).toThrow(
      /参数 minLength.*maxLength/,
    );
  });

  it('says so when a category has no sentences yet', () => {
    expect(() => pickHitokoto(source, { types: ['b'] })).toThrow(/b 漫画）中还没有句子/);
  });

  it('sees a new snapshot as soon as the source hands one out', () => {
    let items = library;
    const live = { all: () => items };
    expect(pickHitokoto(live, { types: ['i'] }).content).toBe('床前明月光');
    items = [s('5', 'i', '疑是地上霜')];
    expect(pickHitokoto(live, { types: ['i'] }).content).toBe('疑是地上霜');
  });
});

describe('the shipped library', () => {
  it('has sentences in every category with an open source, each with a UUID and a known letter', () => {
    const all = fileSentenceSource().all();
    // a 动画, b 漫画, c 游戏, h 影视 ship empty: no openly licensed source (issue 50, data/README.md).
    for (const letter of Object.keys(HITOKOTO_CATEGORIES))
      expect(
        all.some((x) => x.type === letter),
        letter,
      ).toBe(!'abch'.includes(letter));
    for (const x of all) {
      expect(x.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(x.content.trim()).toBe(x.content);
      expect(x.content.length).toBeGreaterThan(0);
    }
    expect(new Set(all.map((x) => x.id)).size).toBe(all.length);
  });
});

describe('hitokotoScript', () => {
  const run = (script: string) => {
    const el = { innerText: '' };
    let asked = '';
    vm.runInNewContext(script, {
      document: {
        querySelector: (q: string) => {
          asked = q;
          return el;
        },
      },
    });
    // biome-ignore lint/performance/useDomNodeTextContent: the shipped script sets innerText, as on hitokoto.cn
    return { text: el.innerText, asked };
  };

  it('writes the sentence into the selected element', () => {
    expect(run(hitokotoScript('你好，"世界"\\', '.hitokoto'))).toEqual({ text: '你好，"世界"\\', asked: '.hitokoto' });
  });

  it('keeps </script>, <!-- and line separators from breaking out of a script element', () => {
    const nasty = '</script><!--\u2028\u2029';
    const script = hitokotoScript(nasty, nasty);
    expect(script).not.toMatch(/<|\u2028|\u2029/);
    expect(run(script)).toEqual({ text: nasty, asked: nasty });
  });
});
