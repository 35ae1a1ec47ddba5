/**
 * The double-hour almanac (时辰宜忌) of one day: twelve entries, 子时 … 亥时, from lunar-javascript.
 *
 * Pure module: no HTTP framework here.
 */
import lunarJs, { type LunarTime } from 'lunar-javascript';
import { solarTermsOfYear } from '../../../engines/calendar/solar-terms.js';

const { Solar, NineStar } = lunarJs;

export interface AlmanacEntry {
  /** The almanac day the entry belongs to, `Y-M-D` without zero padding (`2026-1-5`). */
  date: string;
  /** The window, `HH:MM-HH:MM`; the first is `23:00-00:59` (starting the evening before `date`). */
  hours: string;
  /** `子时` … `亥时`. */
  hour: string;
  /** Suitable activities, space-separated; `无` when there are none. */
  yi: string;
  /** Activities to avoid, space-separated; `无` when there are none. */
  ji: string;
  /** The clash, as lunar-javascript words it: `(戊午)马` = clashes with 戊午, the horse. */
  chong: string;
  /** Direction of the 煞, e.g. `南`. */
  sha: string;
  /** 纳音 of the hour's stem-branch, e.g. `海中金`. */
  nayin: string;
  /** The hour's flying star (紫白九星), e.g. `三碧木天玑`. */
  jiuxing: string;
}

/** Windows in entry order: the 子 hour runs 23:00 of the previous evening to 00:59, then two hours each. */
export const ALMANAC_HOURS = [
  '23:00-00:59',
  '01:00-02:59',
  '03:00-04:59',
  '05:00-06:59',
  '07:00-08:59',
  '09:00-10:59',
  '11:00-12:59',
  '13:00-14:59',
  '15:00-16:59',
  '17:00-18:59',
  '19:00-20:59',
  '21:00-22:59',
] as const;

const joinOrNone = (items: string[]) => (items.length > 0 ? items.join(' ') : '无');

/**
 * The twelve entries of `date` (`YYYY-MM-DD`, already validated as a real day in 1900–2100).
 *
 * Which of lunar-javascript's 13 times: `Lunar.getTimes()` gives the early 子 hour (00:00-00:59), 丑 … 亥,
 * and the late 子 hour (23:00-23:59). The almanac day starts at 23:00 the evening before, so the 子时 of
 * `date` is the early 子 hour of `date` (lunar-javascript computes it from `date`'s day stem, the same
 * stem-branch as the previous day's late 子 hour); the late 子 hour of `date` belongs to the next day and
 * is dropped. Entries 0…11 are therefore getTimes()[0…11].
 *
 * @example computeAlmanac('2026-11-21')[0] // { date: '2026-11-21', hours: '23:00-00:59', hour: '子时', chong: '(戊午)马', … }
 */
export function computeAlmanac(date: string): AlmanacEntry[] {
  const [y, m, d] = date.split('-').map(Number);
  const lunar = Solar.fromYmd(y, m, d).getLunar();
  const yangDun = isYangDun(date, y);
  const label = `${y}-${m}-${d}`;
  return lunar
    .getTimes()
    .slice(0, 12)
    .map((t, i) => ({
      date: label,
      hours: ALMANAC_HOURS[i],
      hour: `${t.getZhi()}时`,
      yi: joinOrNone(t.getYi()),
      ji: joinOrNone(t.getJi()),
      chong: t.getChongDesc(),
      sha: t.getSha(),
      nayin: t.getNaYin(),
      jiuxing: hourNineStar(t, lunar.getDayZhiIndex(), yangDun),
    }));
}

/**
 * 时家紫白: from the 冬至 day until the day before 夏至 the hour stars run forward (阳遁), otherwise backward.
 * LunarTime.getNineStar() makes this call from the lunar year's term table, whose 冬至 is the previous
 * December's: from 冬至 to 31 December it runs the stars backward. So the season is decided here from the
 * Gregorian year's own 夏至 and 冬至, and the star from the same rule lunar-javascript uses otherwise.
 */
function isYangDun(date: string, year: number): boolean {
  const { xiaZhi, dongZhi } = solsticeDays(year);
  return date < xiaZhi || date >= dongZhi;
}

function hourNineStar(t: LunarTime, dayZhiIndex: number, yangDun: boolean): string {
  // 子午卯酉 days start the 子 hour at 一白 (阳) / 九紫 (阴), 辰戌丑未 at 四绿 / 六白, 寅申巳亥 at 七赤 / 三碧.
  const start = (yangDun ? [0, 3, 6] : [8, 5, 2])[dayZhiIndex % 3];
  const index = yangDun ? start + t.getZhiIndex() : start + 9 - t.getZhiIndex();
  return NineStar.fromIndex(index % 9).toString();
}

const solstices = new Map<number, { xiaZhi: string; dongZhi: string }>();

function solsticeDays(year: number) {
  let s = solstices.get(year);
  if (!s) {
    const terms = solarTermsOfYear(year);
    const day = (name: string) => terms.find((t) => t.name === name)!.date.slice(0, 10);
    s = { xiaZhi: day('夏至'), dongZhi: day('冬至') };
    solstices.set(year, s);
  }
  return s;
}
