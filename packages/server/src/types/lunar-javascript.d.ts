/**
 * The part of lunar-javascript (1.7.x, untyped UMD/CommonJS) that tianji uses. The package exports one object;
 * import it as a default import (`import lunarJs from 'lunar-javascript'`) and destructure, because Node cannot
 * detect named exports of its UMD wrapper.
 */
declare module 'lunar-javascript' {
  /** A Gregorian date and time (Beijing time for computed moments such as solar terms). */
  export interface Solar {
    getYear(): number;
    getMonth(): number;
    getDay(): number;
    getLunar(): Lunar;
    /** `YYYY-MM-DD` */
    toYmd(): string;
    /** `YYYY-MM-DD HH:MM:SS` */
    toYmdHms(): string;
    /** Western star sign without 座, e.g. `水瓶` (Aquarius runs 01-20…02-18). */
    getXingZuo(): string;
  }

  export interface Lunar {
    getYear(): number;
    /** Zodiac animal of the lunar year (changing at the Spring Festival), e.g. `马`. */
    getYearShengXiao(): string;
    /** Stem-branch of the lunar year, e.g. `庚午`. */
    getYearInGanZhi(): string;
    /** e.g. `一九八九年腊月三十` */
    toString(): string;
    getSolar(): Solar;
    /** Day branch index 0 (子) … 11 (亥), the day changing at midnight. */
    getDayZhiIndex(): number;
    /** Day stem-branch, the day changing at 23:00 (so the late 子 hour belongs to the next day). */
    getDayInGanZhiExact(): string;
    /**
     * The 13 double hours of this day: index 0 is the early 子 hour (00:00-00:59), 1…11 are 丑…亥
     * (01:00-22:59), 12 is the late 子 hour (23:00-23:59), which belongs to the next day.
     */
    getTimes(): LunarTime[];
    /** Solar terms keyed by Chinese name, plus upper-case pinyin keys (DA_XUE, DONG_ZHI, XIAO_HAN …) for the neighbouring years. */
    getJieQiTable(): Record<string, Solar>;
    /** The keys of getJieQiTable() in chronological order. */
    getJieQiList(): string[];
    /** The solar term in force on this day (the latest one at or before it when `wholeDay` is true). */
    getPrevJieQi(wholeDay?: boolean): JieQi;
  }

  export interface JieQi {
    getName(): string;
    getSolar(): Solar;
  }

  export interface LunarTime {
    /** Branch index 0 (子) … 11 (亥). */
    getZhiIndex(): number;
    getZhi(): string;
    getGanZhi(): string;
    /** e.g. `(戊午)马`: the clashing stem-branch and its zodiac animal. */
    getChongDesc(): string;
    /** Direction of the 煞, e.g. `南`. */
    getSha(): string;
    getNaYin(): string;
    /** Activities suited to this hour; `['无']` when there are none. */
    getYi(): string[];
    /** Activities to avoid in this hour; `['无']` when there are none. */
    getJi(): string[];
    getNineStar(): NineStar;
  }

  export interface NineStar {
    /** e.g. `三碧木天玑`: number, colour, element and Big Dipper name. */
    toString(): string;
  }

  export interface Holiday {
    /** `YYYY-MM-DD` */
    getDay(): string;
    getName(): string;
    /** The festival day the entry belongs to, `YYYY-MM-DD`. */
    getTarget(): string;
    /** true for a make-up working day. */
    isWork(): boolean;
  }

  export interface LunarMonth {
    /** 1…12; negative for a leap month (-2 = 闰二月). */
    getMonth(): number;
    getDayCount(): number;
    getFirstJulianDay(): number;
  }

  export interface LunarYear {
    /** The months of the lunar year in order, leap month included. */
    getMonthsInYear(): LunarMonth[];
  }

  const lunarJs: {
    Solar: { fromYmd(year: number, month: number, day: number): Solar; fromJulianDay(julianDay: number): Solar };
    LunarYear: { fromYear(lunarYear: number): LunarYear };
    LunarUtil: { MONTH: string[]; DAY: string[]; NUMBER: string[]; SHENGXIAO: string[] };
    Lunar: { fromYmd(lunarYear: number, lunarMonth: number, lunarDay: number): Lunar };
    NineStar: { fromIndex(index: number): NineStar };
    HolidayUtil: { getHolidays(year: number): Holiday[] };
  };
  export default lunarJs;
}
