import lunarJs from 'lunar-javascript';
import { describe, expect, it } from 'vitest';
import { lunarDateOf } from './lunar-date.js';

describe('lunarDateOf', () => {
  it('agrees with lunar-javascript’s full conversion on every day of sampled years and at random', () => {
    const check = (ymd: string) => {
      const [y, m, d] = ymd.split('-').map(Number);
      const lunar = lunarJs.Solar.fromYmd(y, m, d).getLunar();
      const fast = lunarDateOf(ymd);
      expect(fast.text, ymd).toBe(lunar.toString());
      expect(fast.zodiac, ymd).toBe(lunar.getYearShengXiao());
      expect(fast.year, ymd).toBe(lunar.getYear());
    };
    // 2023 has a leap second month; 1900 and 2100 are the edges of the service's range
    for (const year of [1900, 2023, 2100])
      for (let t = Date.UTC(year, 0, 1); t < Date.UTC(year + 1, 0, 1); t += 86400_000)
        check(new Date(t).toISOString().slice(0, 10));
    let seed = 11;
    for (let k = 0; k < 1500; k++) {
      seed = (seed * 48271) % 2147483647;
      check(new Date(Date.UTC(1900, 0, 1) + (seed % 73000) * 86400_000).toISOString().slice(0, 10));
    }
  });

  it('changes the zodiac at the Spring Festival, not on 1 January', () => {
    expect(lunarDateOf('1990-01-26')).toMatchObject({ zodiac: '蛇', text: '一九八九年腊月三十' });
    expect(lunarDateOf('1990-01-27')).toMatchObject({ zodiac: '马', month: 1, day: 1 });
    expect(lunarDateOf('2023-03-25')).toMatchObject({ leap: true, month: 2, day: 4, text: '二〇二三年闰二月初四' });
  });
});
