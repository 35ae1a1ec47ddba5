/**
 * data/holidays.json against the law and two independent libraries. When a new year's notice is added, these
 * tests check its shape and arithmetic at once, and check it against the libraries as soon as they carry the year.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import lunarJs from 'lunar-javascript';
import chineseDays from 'chinese-days';
import { holidaysOfYear, loadHolidaySchedules, scheduledYears, type HolidaySchedules } from './holidays.js';

const schedules: HolidaySchedules = loadHolidaySchedules();
const years = scheduledYears(schedules);

const DAY = 86_400_000;
const utc = (d: string) => Date.parse(`${d}T00:00:00Z`);
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
const isWeekend = (d: string) => [0, 6].includes(new Date(utc(d)).getUTCDay());
function* daysOf(start: string, end: string) {
  for (let t = utc(start); t <= utc(end); t += DAY) yield iso(t);
}

/** Every day off and every make-up working day in the file, with the notice year it belongs to. */
const off = new Map<string, number>();
const work = new Map<string, number>();
for (const y of years) {
  for (const b of schedules[y]) {
    for (const d of daysOf(b.start, b.end)) off.set(d, y);
    for (const d of b.work) work.set(d, y);
  }
}
const onlyYears = (m: Map<string, number>, keep: (y: number) => boolean) =>
  [...m].filter(([, y]) => keep(y)).map(([d]) => d);

/**
 * Days off a year grants by law (全国年节及纪念日放假办法): 10 under the 1999 rules, 11 from 2008 (清明, 端午, 中秋
 * added, 劳动节 cut to 1), 13 from 2025 (春节 and 劳动节 one more each). Plus the one-off days: 2015's 抗战胜利
 * 70th anniversary (1), and 2020's 春节 extended to 2 February against the epidemic (2).
 */
function statutoryDays(year: number): number {
  const base = year < 2008 ? 10 : year < 2025 ? 11 : 13;
  return base + (year === 2015 ? 1 : 0) + (year === 2020 ? 2 : 0);
}

/**
 * Blocks whose notice gives the holiday on a weekend day without joining the other weekend day to it ("X放假" or
 * "X放假，Y补休", not "与周末连休"): that weekend day is an ordinary one, not part of the block. Every other block
 * includes the free weekend days next to it, because its notice gives a range that holds them or says 与周末连休.
 */
const NOT_JOINED = new Map([
  ['2015 清明节', { day: '2015-04-04', notice: '国办发明电〔2014〕28号：清明节：4月5日放假，4月6日（星期一）补休' }],
  ['2015 中秋节', { day: '2015-09-26', notice: '国办发明电〔2014〕28号：中秋节：9月27日放假' }],
  ['2016 劳动节', { day: '2016-04-30', notice: '国办发明电〔2015〕18号：劳动节：5月1日放假，5月2日（星期一）补休' }],
  ['2017 元旦', { day: '2016-12-31', notice: '国办发明电〔2016〕17号：元旦：1月1日放假，1月2日（星期一）补休' }],
]);

/** Where the State Council notice and a library differ, the notice wins; each case is listed here. */
// HolidayUtil joins the weekend day to the blocks above; the notices do not.
const ONLY_OFF_IN_LUNAR_JS = new Set([...NOT_JOINED.values()].map((b) => b.day));
const NOT_IN_LUNAR_JS = new Set(['2013-04-07', '2013-10-12']); // make-up days the 2013 notice lists, HolidayUtil omits
const ONLY_IN_LUNAR_JS = new Set(['2012-05-02', '2012-10-08']); // ordinary weekdays HolidayUtil marks as make-up days
const NOT_IN_CHINESE_DAYS = new Set(['2005-12-31']); // the 2006 notice: "12月31日(星期六)上班"

/**
 * Each year's notice as chinese-days quotes it above each year of its source (`* 2017`, the gov.cn address, then
 * the notice's items `六、中秋节、国庆节：10月1日至8日…`): the festival names its items give, in order. The notices
 * of 2004–2008 call 劳动节 and 国庆节 by their popular names, which the file writes as the statutory ones.
 */
function noticeHeadings(): Map<number, string[]> {
  const require = createRequire(import.meta.url);
  const dir = path.dirname(require.resolve('chinese-days/package.json'));
  const source = readFileSync(path.join(dir, 'src/holidays/generate.ts'), 'utf8');
  const POPULAR: Record<string, string> = { '“五一”': '劳动节', '“五一”国际劳动节': '劳动节', '“十一”': '国庆节' };
  const FESTIVAL = /^(?:元旦|春节|清明节|劳动节|端午节|中秋节|国庆节)(?:、(?:中秋节|国庆节))?$/u;
  const headings = new Map<number, string[]>();
  let year: number | undefined;
  for (const line of source.split('\n')) {
    const text = line.replace(/^\s*\*\s*/u, '').trim();
    if (/^\d{4}$/u.test(text)) {
      year = Number(text);
      headings.set(year, []);
      continue;
    }
    if (line.includes('*/')) year = undefined;
    const item = /^(?:[一二三四五六七八九十]+、|\d+\.\s*)?([^：:，。\s]+)[：:]/u.exec(text);
    if (year === undefined || !item) continue;
    const name = POPULAR[item[1]] ?? item[1];
    if (FESTIVAL.test(name)) headings.get(year)!.push(name);
  }
  return new Map([...headings].filter(([y, names]) => names.length > 0 && years.includes(y)).sort(([a], [b]) => a - b));
}

/** Blocks a separate notice adds to the year's: not among the yearly notice's items. */
const OTHER_NOTICES = new Map([['2015 抗战胜利70周年纪念日', '国务院 国发明电〔2015〕1号']]);

describe('data/holidays.json', () => {
  it('covers every year from 2004 to 2026 without a gap', () => {
    expect(years[0]).toBe(2004);
    expect(years.at(-1)).toBeGreaterThanOrEqual(2026);
    expect(years).toEqual(Array.from({ length: years.length }, (_, i) => 2004 + i));
  });

  it('has well-formed blocks: real dates, start ≤ end, in their notice year, make-up days on weekends outside the block', () => {
    for (const y of years) {
      for (const b of schedules[y]) {
        const where = `${y} ${b.name}`;
        for (const d of [b.start, b.end, ...b.work]) expect(iso(utc(d)), where).toBe(d);
        expect(b.start <= b.end, where).toBe(true);
        expect(b.end.slice(0, 4), where).toBe(String(y));
        // Only 元旦 may start in the previous December.
        if (b.start.slice(0, 4) !== String(y)) expect([b.name, b.start.slice(5, 7)], where).toEqual(['元旦', '12']);
        for (const d of b.work) {
          expect(isWeekend(d), `${where} ${d}`).toBe(true);
          expect(d >= b.start && d <= b.end, `${where} ${d}`).toBe(false);
        }
      }
    }
  });

  it('holds the days its notice gives: a free weekend day next to a block only where the notice joins it', () => {
    for (const y of years) {
      for (const b of schedules[y]) {
        const alone = NOT_JOINED.get(`${y} ${b.name}`);
        const neighbours = [iso(utc(b.start) - DAY), iso(utc(b.end) + DAY)];
        if (alone) expect(neighbours, `${y} ${b.name} ends next to ${alone.day}: ${alone.notice}`).toContain(alone.day);
        for (const d of neighbours)
          if (d !== alone?.day)
            expect(isWeekend(d) && !work.has(d), `${y} ${b.name}: ${d} is a free weekend day next to the block`).toBe(
              false,
            );
      }
    }
  });

  it('gives 2015 中秋节 as 9月27日 only, as 国办发明电〔2014〕28号 does, and the other blocks whose weekend it does not join', () => {
    expect(schedules['2015']).toContainEqual({ name: '中秋节', start: '2015-09-27', end: '2015-09-27', work: [] });
    expect(schedules['2015']).toContainEqual({ name: '清明节', start: '2015-04-05', end: '2015-04-06', work: [] });
    expect(schedules['2016']).toContainEqual({ name: '劳动节', start: '2016-05-01', end: '2016-05-02', work: [] });
    expect(schedules['2017']).toContainEqual({ name: '元旦', start: '2017-01-01', end: '2017-01-02', work: [] });
  });

  it('grants each year exactly the days off the law provides: the balances add up', () => {
    for (const y of years) {
      const total = holidaysOfYear(schedules, y, '2000-01-01').reduce((sum, h) => sum + h.balance, 0);
      expect(total, String(y)).toBe(statutoryDays(y));
    }
  });

  it('names every year’s 春节 and 国庆节, and from 2008 清明节, 端午节 and 中秋节', () => {
    for (const y of years) {
      const names = schedules[y].map((b) => b.name).join('、');
      const expected =
        y < 2008
          ? ['元旦', '春节', '劳动节', '国庆节']
          : ['元旦', '春节', '清明节', '劳动节', '端午节', '中秋节', '国庆节'];
      for (const n of expected) expect(names, String(y)).toContain(n);
    }
  });

  it('names every block as its notice names it, joint blocks in the notice’s order (2017: 中秋节、国庆节)', () => {
    const notices = noticeHeadings();
    expect([...notices.keys()]).toEqual(years);
    const differ: string[] = [];
    for (const y of years) {
      const ours = schedules[y].map((b) => b.name).filter((n) => !OTHER_NOTICES.has(`${y} ${n}`));
      const theirs = notices.get(y)!;
      if (ours.join(' | ') !== theirs.join(' | '))
        differ.push(`${y}: ${ours.join(' | ')} ≠ notice ${theirs.join(' | ')}`);
    }
    expect(differ).toEqual([]);
  });

  it('holds the known 2025 schedule: 春节 01-28 … 02-04 with make-up days 01-26 and 02-08, 劳动节 05-01 … 05-05', () => {
    expect(schedules['2025']).toContainEqual({
      name: '春节',
      start: '2025-01-28',
      end: '2025-02-04',
      work: ['2025-01-26', '2025-02-08'],
    });
    expect(schedules['2025']).toContainEqual({
      name: '劳动节',
      start: '2025-05-01',
      end: '2025-05-05',
      work: ['2025-04-27'],
    });
    expect(schedules['2023']).toContainEqual({
      name: '中秋节、国庆节',
      start: '2023-09-29',
      end: '2023-10-06',
      work: ['2023-10-07', '2023-10-08'],
    });
  });

  it('agrees day by day with lunar-javascript’s HolidayUtil, apart from the listed corrections', () => {
    // Compared over the notice years HolidayUtil knows (a newly added year is checked once the library has it).
    const covered = new Set<number>();
    const theirsOff = new Set<string>();
    const theirsWork = new Set<string>();
    for (let y = years[0] - 1; y <= years.at(-1)! + 1; y++) {
      for (const h of lunarJs.HolidayUtil.getHolidays(y)) {
        const noticeYear = Number(h.getTarget().slice(0, 4));
        if (!schedules[noticeYear]) continue;
        covered.add(noticeYear);
        (h.isWork() ? theirsWork : theirsOff).add(h.getDay());
      }
    }
    expect(covered.has(2025) && covered.has(2010)).toBe(true);
    const ours = (m: Map<string, number>) => new Set(onlyYears(m, (y) => covered.has(y)));
    expect([...theirsOff].filter((d) => !ours(off).has(d)).sort()).toEqual([...ONLY_OFF_IN_LUNAR_JS].sort());
    expect([...ours(off)].filter((d) => !theirsOff.has(d))).toEqual([]);
    expect([...theirsWork].filter((d) => !ours(work).has(d)).sort()).toEqual([...ONLY_IN_LUNAR_JS].sort());
    expect([...ours(work)].filter((d) => !theirsWork.has(d)).sort()).toEqual([...NOT_IN_LUNAR_JS].sort());
  });

  it('agrees day by day with the chinese-days package, apart from the listed corrections', () => {
    // Compared over the years chinese-days carries (it names the days of every holiday it knows).
    const last = years.filter((y) => chineseDays.getDayDetail(`${y}-10-01`).name.includes(',')).at(-1)!;
    expect(last).toBeGreaterThanOrEqual(2026);
    const mismatches: string[] = [];
    for (const d of daysOf(`${years[0] - 1}-12-01`, `${last}-12-31`)) {
      if ((off.get(d) ?? work.get(d) ?? years[0]) > last) continue;
      const detail = chineseDays.getDayDetail(d);
      const named = detail.name.includes(','); // "Spring Festival,春节,4"; plain weekdays are named "Monday" …
      if (off.has(d) && detail.work) mismatches.push(`${d} off here, a working day there`);
      if (off.has(d) && !isWeekend(d) && !named) mismatches.push(`${d} off here, an ordinary weekday there`);
      if (named && !detail.work && !off.has(d)) mismatches.push(`${d} a holiday there (${detail.name}), not here`);
      if (work.has(d) && !detail.work && !NOT_IN_CHINESE_DAYS.has(d))
        mismatches.push(`${d} a make-up day here, off there`);
      if (named && detail.work && !work.has(d)) mismatches.push(`${d} a make-up day there, not here`);
    }
    expect(mismatches).toEqual([]);
  });
});
