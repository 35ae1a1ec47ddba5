import { describe, expect, it } from 'vitest';
import { seededRng } from './rng.js';
import {
  CHINESE_COLORS,
  NAME_THRESHOLD,
  chineseColorByName,
  nearestChineseColor,
  nearestChineseColorExhaustive,
} from './chinese-colors.js';

describe('Chinese traditional colour table', () => {
  it('has over 100 colours, unique names, upper-case #RRGGBB values and pinyin', () => {
    expect(CHINESE_COLORS.length).toBeGreaterThanOrEqual(100);
    const names = CHINESE_COLORS.flatMap((c) => [c.name, ...(c.aliases ?? [])]);
    expect(new Set(names).size).toBe(names.length);
    for (const c of CHINESE_COLORS) {
      expect(c.hex).toMatch(/^#[0-9A-F]{6}$/);
      expect(c.pinyin).toMatch(/^[a-zāáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜü ]+$/);
    }
  });

  it('holds the well-known values of the classic table', () => {
    const hex = (name: string) => chineseColorByName(name)?.hex;
    expect(hex('胭脂')).toBe('#9D2933');
    expect(hex('靛青')).toBe('#177CB0');
    expect(hex('朱砂')).toBe('#FF461F');
    expect(hex('月白')).toBe('#D6ECF0');
    expect(hex('黛')).toBe('#4A4266');
    expect(hex('藕荷色')).toBe('#E4C6D0');
    expect(hex('鹅黄')).toBe('#FFF143');
  });

  it('finds names with or without the trailing 色, and aliases', () => {
    expect(chineseColorByName('樱桃')?.name).toBe('樱桃色');
    expect(chineseColorByName('墨')?.name).toBe('墨色');
    expect(chineseColorByName('赭')?.hex).toBe('#9C5333'); // 赭 and 赭色 are two colours in the table
    expect(chineseColorByName('赭色')?.hex).toBe('#955539');
    expect(chineseColorByName('葱倩')?.name).toBe('葱青');
    expect(chineseColorByName('不是颜色')).toBeUndefined();
  });

  it('names a colour only within the threshold', () => {
    expect(nearestChineseColor('#9d2933')).toMatchObject({ name: '胭脂', deltaE: 0 });
    expect(nearestChineseColor('#9e2a34')?.name).toBe('胭脂');
    const far = nearestChineseColor('#ff00ff'); // magenta: nothing in the table is that colour
    if (far) expect(far.deltaE).toBeLessThanOrEqual(NAME_THRESHOLD);
    expect(nearestChineseColor('#9d2933', 0.5)?.name).toBe('胭脂');
  });

  it('the fast search gives the same name as the exhaustive one (3,000 seeded random colours)', () => {
    const rng = seededRng('chinese-colors');
    for (let i = 0; i < 3000; i++) {
      const hex = `#${rng.int(0x1000000).toString(16).padStart(6, '0')}`;
      const exact = nearestChineseColorExhaustive(hex);
      const fast = nearestChineseColor(hex);
      const expected = exact.deltaE <= NAME_THRESHOLD ? CHINESE_COLORS[exact.index].name : null;
      expect(fast?.name ?? null, hex).toBe(expected);
    }
  });
});
