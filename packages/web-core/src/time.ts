const BEIJING = new Intl.DateTimeFormat('sv-SE', {
  timeZone: 'Asia/Shanghai',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
});

/** An instant as Beijing time, `2026-11-23 14:32` (how the admin app shows dates). */
export const beijingTime = (iso: string | null | undefined) => (iso ? BEIJING.format(new Date(iso)) : '');
