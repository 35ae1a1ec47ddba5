import { describe, expect, it } from 'vitest';
import { EMOJI_GROUPS, loadEmojiTable, randomEmoji, resolveEmojiGroup } from './random-emoji.js';
import { seededRng } from '../../../shared/rng.js';

const table = loadEmojiTable();

describe('random emoji', () => {
  it('have Chinese and English names, a group and exact code points', () => {
    const grin = table.all.find((e) => e.hexcode === '1F600')!;
    expect(grin).toMatchObject({
      emoji: '😀',
      nameEn: 'grinning face',
      group: 'smileys-emotion',
      groupName: '笑脸和情感',
      subgroup: 'face-smiling',
      codePoints: ['U+1F600'],
    });
    expect(grin.name).toMatch(/\p{Script=Han}/u);
    const flag = table.all.find((e) => e.hexcode === '1F1E8-1F1F3')!;
    expect(flag).toMatchObject({ emoji: '🇨🇳', group: 'flags', codePoints: ['U+1F1E8', 'U+1F1F3'] });
    // the fully qualified sequence: ☺️ is U+263A U+FE0F although emojibase's hexcode drops the selector
    expect(table.all.find((e) => e.hexcode === '263A')?.codePoints).toEqual(['U+263A', 'U+FE0F']);
  });

  it('leave out skin tones, hair components and lone regional indicators', () => {
    expect(table.all.length).toBeGreaterThan(1800);
    expect(table.all.some((e) => (e.group as string) === 'component')).toBe(false);
    expect(table.all.some((e) => /^1F1E[6-9A-F]$|^1F1F[0-9A-F]$/.test(e.hexcode))).toBe(false);
    expect(table.all.some((e) => /-1F3F[B-F]/.test(e.hexcode))).toBe(false);
    expect([...table.byGroup.keys()].sort()).toEqual(Object.keys(EMOJI_GROUPS).sort());
  });

  it('resolve a group by key or Chinese name', () => {
    expect(resolveEmojiGroup(table, 'animals-nature')).toBe('animals-nature');
    expect(resolveEmojiGroup(table, 'Animals-Nature')).toBe('animals-nature');
    expect(resolveEmojiGroup(table, '食物和饮料')).toBe('food-drink');
    expect(resolveEmojiGroup(table, '旗帜')).toBe('flags');
    expect(() => resolveEmojiGroup(table, 'component')).toThrow(/group/);
  });

  it('draw distinct emoji from the group, reproducibly for a seed', () => {
    const a = randomEmoji(seededRng('s'), table, 85, 'activities');
    expect(new Set(a.map((e) => e.hexcode)).size).toBe(85);
    expect(a.every((e) => e.group === 'activities')).toBe(true);
    expect(randomEmoji(seededRng('s'), table, 85, 'activities')).toEqual(a);
    // more than the group holds: every emoji once, then drawn again
    expect(randomEmoji(seededRng('t'), table, 100, 'activities')).toHaveLength(100);
  });
});
