import { describe, expect, it } from 'vitest';
import lunarJs from 'lunar-javascript';
import { ALMANAC_HOURS, computeAlmanac } from './almanac.js';

const GAN = '甲乙丙丁戊己庚辛壬癸';
const ZHI = '子丑寅卯辰巳午未申酉戌亥';
const ANIMAL = '鼠牛虎兔龙蛇马羊猴鸡狗猪';

/**
 * Independent of lunar-javascript: the day's stem and branch counted from 1949-10-01 (a 甲子 day), then the
 * hour stems by 五鼠遁 (甲己日起甲子, 乙庚日起丙子 …). The clash of stem-branch XY is (X+4)(Y+6).
 */
function dayIndex(date: string) {
  return Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse('1949-10-01T00:00:00Z')) / 86_400_000);
}
function expectedChong(date: string, hour: number): string {
  const dayStem = ((dayIndex(date) % 10) + 10) % 10;
  const stem = ((dayStem % 5) * 2 + hour) % 10;
  return `(${GAN[(stem + 4) % 10]}${ZHI[(hour + 6) % 12]})${ANIMAL[(hour + 6) % 12]}`;
}
/** 申子辰煞南, 寅午戌煞北, 亥卯未煞西, 巳酉丑煞东. */
const SHA = ['南', '东', '北', '西', '南', '东', '北', '西', '南', '东', '北', '西'];

describe('computeAlmanac', () => {
  it('returns 12 entries in the contract’s order, 23:00-00:59 first and 21:00-22:59 last', () => {
    const entries = computeAlmanac('2026-11-21');
    expect(entries).toHaveLength(12);
    expect(entries.map((e) => e.hours)).toEqual([...ALMANAC_HOURS]);
    expect(entries[0].hours).toBe('23:00-00:59');
    expect(entries[11].hours).toBe('21:00-22:59');
    expect(entries.map((e) => e.hour)).toEqual([...ZHI].map((z) => `${z}时`));
  });

  it('writes the date as Y-M-D without zero padding, the same on every entry', () => {
    expect(new Set(computeAlmanac('2026-01-05').map((e) => e.date))).toEqual(new Set(['2026-1-5']));
    expect(computeAlmanac('2026-11-21')[0].date).toBe('2026-11-21');
  });

  it('gives 2026-11-21’s 子时 as 甲子: clashes with 戊午 (horse), 煞南, 海中金', () => {
    const zi = computeAlmanac('2026-11-21')[0];
    expect(zi).toMatchObject({ hour: '子时', chong: '(戊午)马', sha: '南', nayin: '海中金' });
  });

  it('gives the known 子时 and 午时 of 1949-10-01 (甲子日) and 2000-01-01 (戊午日)', () => {
    const d1949 = computeAlmanac('1949-10-01');
    expect(d1949[0]).toMatchObject({ chong: '(戊午)马', nayin: '海中金' }); // 甲子时
    expect(d1949[6]).toMatchObject({ hour: '午时', chong: '(甲子)鼠', sha: '北', nayin: '路旁土' }); // 庚午时
    const d2000 = computeAlmanac('2000-01-01');
    expect(d2000[0]).toMatchObject({ chong: '(丙午)马', nayin: '桑柘木' }); // 壬子时
  });

  it('maps lunar-javascript’s 13 hours deliberately: 子时 is the 子 hour that starts at 23:00 the evening before', () => {
    // Checked over many days against the stems and branches worked out above, including the day boundary.
    // Every 5th day of 2025 and every day around the turn of the year.
    const offsets = [...Array.from({ length: 73 }, (_, k) => k * 5), ...Array.from({ length: 14 }, (_, k) => 358 + k)];
    for (const i of offsets) {
      const date = new Date(Date.UTC(2025, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
      const entries = computeAlmanac(date);
      entries.forEach((e, h) => {
        expect(e.chong, `${date} ${e.hour}`).toBe(expectedChong(date, h));
        expect(e.sha, `${date} ${e.hour}`).toBe(SHA[h]);
      });
      // The same stem-branch as lunar-javascript's late 子 hour (23:00-23:59) of the day before.
      const prev = new Date(Date.UTC(2025, 0, 1) + (i - 1) * 86_400_000);
      const lateZi = lunarJs.Solar.fromYmd(prev.getUTCFullYear(), prev.getUTCMonth() + 1, prev.getUTCDate())
        .getLunar()
        .getTimes()[12];
      expect(entries[0].chong).toBe(lateZi.getChongDesc());
      expect(entries[0].nayin).toBe(lateZi.getNaYin());
    }
  });

  it('never leaves yi or ji empty: a list with nothing in it reads 无', () => {
    for (const date of ['2026-11-21', '2024-02-10', '2025-01-01', '1900-01-01', '2100-12-31']) {
      for (const e of computeAlmanac(date)) {
        expect(e.yi.length).toBeGreaterThan(0);
        expect(e.ji.length).toBeGreaterThan(0);
        expect(e.yi).not.toMatch(/^\s|\s$|\s{2}/);
      }
    }
    expect(computeAlmanac('2026-11-21')[3].yi).toBe('无'); // 卯时 of 2026-11-21
  });

  it('runs the hour stars backward after 夏至 and forward from 冬至 day (紫白九星)', () => {
    // 2026-11-21 is a 亥 day before 冬至: 子时 starts at 三碧 and runs backward.
    expect(
      computeAlmanac('2026-11-21')
        .slice(0, 3)
        .map((e) => e.jiuxing.slice(0, 2)),
    ).toEqual(['三碧', '二黑', '一白']);
    // 2026-12-22 (冬至, a 午 day) and 2026-12-25 (a 酉 day): 子午卯酉日 start at 一白 and run forward.
    for (const date of ['2026-12-22', '2026-12-25']) {
      expect(
        computeAlmanac(date)
          .slice(0, 3)
          .map((e) => e.jiuxing.slice(0, 2)),
        date,
      ).toEqual(['一白', '二黑', '三碧']);
    }
    // 2026-12-21 (巳 day, the eve of 冬至) is still backward from 三碧.
    expect(computeAlmanac('2026-12-21')[0].jiuxing.slice(0, 2)).toBe('三碧');
  });

  it('agrees with lunar-javascript’s own hour star everywhere but 冬至 … 31 December, where it runs the wrong way', () => {
    // Every 4th day of 2026, then every day of December.
    const offsets = [...Array.from({ length: 84 }, (_, k) => k * 4), ...Array.from({ length: 31 }, (_, k) => 334 + k)];
    for (const i of offsets) {
      const d = new Date(Date.UTC(2026, 0, 1) + i * 86_400_000);
      const date = d.toISOString().slice(0, 10);
      const times = lunarJs.Solar.fromYmd(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate())
        .getLunar()
        .getTimes();
      const ours = computeAlmanac(date).map((e) => e.jiuxing);
      const theirs = times.slice(0, 12).map((t) => t.getNineStar().toString());
      if (date < '2026-12-22') expect(ours, date).toEqual(theirs);
      else expect(ours, date).not.toEqual(theirs);
    }
  });

  it('answers both ends of the range', () => {
    expect(computeAlmanac('1900-01-01')).toHaveLength(12);
    expect(computeAlmanac('2100-12-31')[11].date).toBe('2100-12-31');
  });
});
