import { todayInShanghai } from './shanghai-day.js';

/**
 * How the admin exports read (RuoYi's @Excel): cells as the list pages show them — Beijing times, 是/否, names
 * instead of codes — and a file named for the list and the day, `登录日志-2026-12-01.csv`.
 */

const BEIJING = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Asia/Shanghai',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** An instant as Beijing time `2026-12-01 14:32:05`; '' for none. @example exportTime('2026-12-01T06:32:05Z') */
export function exportTime(value: string | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  const p: Record<string, string> = {};
  for (const { type, value: v } of BEIJING.formatToParts(d)) p[type] = v;
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

/** A yes/no cell: 是 or 否. */
export const yesNo = (v: boolean | null | undefined): string => (v ? '是' : '否');

/** A code's Chinese name from one of the server's name tables; the code itself for one the table lacks. */
export const zhName = (table: Record<string, { zh: string }>, code: string | null | undefined): string =>
  code ? (Object.hasOwn(table, code) ? table[code].zh : code) : '';

/** The names an export is saved under: `title` in Chinese, `ascii` for clients that take no UTF-8 file name. */
export interface ExportName {
  title: string;
  ascii: string;
}

/** The file name of an export made `now`: `登录日志-2026-12-01.csv` (the day in Beijing). */
export const exportFileName = (title: string, ext: string, now?: Date) => `${title}-${todayInShanghai(now)}.${ext}`;

/**
 * The Content-Disposition of an export: the Chinese name as RFC 6266 `filename*` (UTF-8, percent-encoded) and the
 * ASCII name as `filename` for the few clients that read only that.
 */
export function contentDisposition(name: ExportName, ext: string, now?: Date): string {
  const utf8 = encodeURIComponent(exportFileName(name.title, ext, now));
  return `attachment; filename="${exportFileName(name.ascii, ext, now)}"; filename*=UTF-8''${utf8}`;
}
