import { describe, expect, it } from 'vitest';
import { candidates, render, type MoodQuote } from './mood-quotes.js';

const quotes: MoodQuote[] = [
  { id: '1', style: 'flattery', content: '{name}的笑容是最好看的风景' },
  { id: '2', style: 'flattery', content: '你今天也太好看了吧' },
  { id: '3', style: 'toxic', content: '努力不一定成功，但不努力一定很轻松' },
];

describe('mood quotes', () => {
  it('keeps to the asked style, and to addressed templates when a name is given', () => {
    expect(candidates(quotes, 'toxic').map((q) => q.id)).toEqual(['3']);
    expect(candidates(quotes, 'flattery', '小明').map((q) => q.id)).toEqual(['1']);
    expect(candidates(quotes).length).toBe(3);
  });

  it('fills the name slot with the name, or 你', () => {
    expect(render(quotes[0], '小明')).toBe('小明的笑容是最好看的风景');
    expect(render(quotes[0])).toBe('你的笑容是最好看的风景');
  });
});
