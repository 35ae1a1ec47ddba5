import { describe, expect, it } from 'vitest';
import { PoemIndex, lastHanChar, versesOf, type Poem } from './poem-index.js';

const poems: Poem[] = [
  {
    id: '1',
    title: '静夜思',
    author: '李白',
    dynasty: '唐',
    lines: ['床前明月光，疑是地上霜。', '举头望明月，低头思故乡。'],
  },
  {
    id: '2',
    title: '霜月',
    author: '李商隐',
    dynasty: '唐',
    lines: ['初闻征雁已无蝉，百尺楼高水接天。', '青女素娥俱耐冷，月中霜里斗婵娟。'],
  },
];

describe('poem index', () => {
  const index = new PoemIndex(poems);

  it('splits lines into verses at punctuation', () => {
    expect(versesOf('床前明月光，疑是地上霜。')).toEqual(['床前明月光', '疑是地上霜']);
  });

  it('finds every verse with the keyword for 飞花令', () => {
    const texts = index.containing('月').map((v) => v.text);
    expect(texts).toEqual(['床前明月光', '举头望明月', '月中霜里斗婵娟']);
    expect(index.containing('明月').map((v) => v.poem.title)).toEqual(['静夜思', '静夜思']);
    expect(index.containing('雪')).toEqual([]);
  });

  it('chains a verse that starts with the last character for 接龙', () => {
    const ch = lastHanChar('疑是地上霜。');
    expect(ch).toBe('霜');
    expect(index.startingWith('月').map((v) => v.text)).toEqual(['月中霜里斗婵娟']);
  });
});
