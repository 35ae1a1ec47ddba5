/** Parts rather than a locale's layout: `2026-11-23 14:32` whatever the runtime's locale data says. */
const BEIJING = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Asia/Shanghai',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/**
 * An instant (ISO text, or milliseconds) as Beijing time, `2026-11-23 14:32`: how every tianji client shows a date.
 * Nothing (null, undefined) shows as empty; a value that is not a date shows as it is, never as an error.
 */
export function beijingTime(value: unknown): string {
  if (typeof value !== 'string' && typeof value !== 'number') return value == null ? '' : String(value);
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  const p: Record<string, string> = {};
  for (const { type, value: v } of BEIJING.formatToParts(d)) p[type] = v;
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}
