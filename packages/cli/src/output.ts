/**
 * The shared output and exit-code layer: every command prints through here, and every failure ends here with a
 * documented exit code (see EXIT).
 */
import Table from 'cli-table3';
import { ApiError, SessionEndedError } from '@tianji/client';

/** Exit codes scripts can rely on (README "Command line"). */
export const EXIT = { OK: 0, USAGE: 2, FORBIDDEN: 3, SIGNED_OUT: 4, SERVER: 5 } as const;

/**
 * A failure with its exit code, a message for people (Chinese first) and a code for scripts: the server's error code
 * when it gave one (`FORCED_LOGOUT`, `NOT_FOUND`), else the CLI's own (`USAGE`, `NOT_SIGNED_IN`, `UNREACHABLE`).
 */
export class CliError extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
    readonly code: string = CODE_OF_EXIT[exitCode] ?? 'ERROR',
  ) {
    super(message);
  }
}

const CODE_OF_EXIT: Record<number, string> = { 2: 'USAGE', 3: 'FORBIDDEN', 4: 'SIGNED_OUT', 5: 'SERVER_ERROR' };

export const usageError = (message: string) => new CliError(EXIT.USAGE, message);

/** Prints a failure on stderr: `tianji: <message>`, or with --json one JSON object scripts can read. */
export function reportFailure(failure: CliError, asJson: boolean): void {
  process.stderr.write(
    asJson
      ? `${JSON.stringify({ error: { code: failure.code, message: failure.message, exitCode: failure.exitCode } })}\n`
      : `tianji: ${failure.message}\n`,
  );
}

const beijing = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Asia/Shanghai',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** `2026-11-23 14:32`, Beijing time; the input unchanged when it is not a date. */
export function formatDate(value: unknown): string {
  if (typeof value !== 'string' && typeof value !== 'number') return value == null ? '' : String(value);
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  const p = Object.fromEntries(beijing.formatToParts(d).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

/** JSON with bigints as exact digits (the super-admin mask 9223372036854775807 must not become 9223372036854776000). */
export function toJson(value: unknown): string {
  const marks: string[] = [];
  const text = JSON.stringify(
    value,
    (_k, v: unknown) => (typeof v === 'bigint' ? `\u0000big${marks.push(v.toString()) - 1}` : v),
    2,
  );
  return text.replace(/"\\u0000big(\d+)"/g, (_m, i: string) => marks[Number(i)]!);
}

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
}

/** Aligned columns without borders, like `kubectl get`; empty lists say so. */
export function table<T>(rows: readonly T[], columns: ReadonlyArray<Column<T>>): string {
  if (rows.length === 0) return '（无记录）';
  const t = new Table({
    head: columns.map((c) => c.header),
    chars: {
      top: '',
      'top-mid': '',
      'top-left': '',
      'top-right': '',
      bottom: '',
      'bottom-mid': '',
      'bottom-left': '',
      'bottom-right': '',
      left: '',
      'left-mid': '',
      mid: '',
      'mid-mid': '',
      right: '',
      'right-mid': '',
      middle: '  ',
    },
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
  });
  for (const r of rows) t.push(columns.map((c) => cell(c.value(r))));
  return t.toString().replace(/[ \t]+$/gm, '');
}

/** A table of records whose shape this CLI does not know in advance (newer routes): every scalar field, dates formatted. */
export function genericTable(rows: ReadonlyArray<Record<string, unknown>>): string {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter((k) =>
    rows.some((r) => r[k] === null || typeof r[k] !== 'object'),
  );
  return table(
    rows,
    keys.map((k) => ({
      header: k,
      value: (r: Record<string, unknown>) => (/At$|time$/i.test(k) ? formatDate(r[k]) : r[k]),
    })),
  );
}

/** Label/value lines for one record. */
export function fields(pairs: ReadonlyArray<[string, unknown]>): string {
  const width = Math.max(...pairs.map(([k]) => displayWidth(k)));
  return pairs.map(([k, v]) => `${k}${' '.repeat(width - displayWidth(k))}  ${cell(v)}`).join('\n');
}

function cell(v: unknown): string {
  if (v == null) return '';
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean')
    return String(v);
  return JSON.stringify(v);
}

/** Terminal columns: CJK characters take two. */
function displayWidth(s: string): number {
  let w = 0;
  for (const ch of s)
    w += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(ch)
      ? 2
      : 1;
  return w;
}

/** What a command hands back: the data for --json and the text for people. */
export interface Output {
  json: unknown;
  text: string;
}

export function emit(out: Output, asJson: boolean): void {
  process.stdout.write(`${asJson ? toJson(out.json) : out.text}\n`);
}

/** The reason the server gave with its last 401, for "signed out" messages. */
export interface LastRejection {
  code?: string;
  message?: string;
}

/**
 * Maps any failure to its message and exit code (never a stack trace). `server` is the address the command talked
 * to: a refused connection names it.
 */
export function describeFailure(e: unknown, rejection: LastRejection = {}, server?: string): CliError {
  if (e instanceof CliError) return e;
  if (e instanceof SessionEndedError) {
    if (e.reason === 'no-session' && !rejection.code)
      return new CliError(EXIT.SIGNED_OUT, '未登录：请先运行 tianji login（not signed in）', 'NOT_SIGNED_IN');
    const why = rejection.message ? `${rejection.message}${rejection.code ? ` (${rejection.code})` : ''}` : e.reason;
    return new CliError(
      EXIT.SIGNED_OUT,
      `会话已结束：${why}；请重新运行 tianji login（session ended）`,
      rejection.code ?? 'SESSION_ENDED',
    );
  }
  if (e instanceof ApiError) {
    const text = `${e.message} (${e.code})`;
    if (e.status === 403)
      return new CliError(EXIT.FORBIDDEN, e.message.startsWith('无权限') ? text : `无权限：${text}`, e.code);
    if (e.status === 401) return new CliError(EXIT.SIGNED_OUT, `会话已结束：${text}；请重新运行 tianji login`, e.code);
    if (e.status === 404 && (e.code === 'HTTP_404' || /^no route/i.test(e.message)))
      return new CliError(EXIT.SERVER, `服务器没有这个接口（HTTP 404）：需要更新的 tianji 服务器`, 'NO_ROUTE');
    return new CliError(EXIT.SERVER, `服务器错误（HTTP ${e.status}）：${text}`, e.code);
  }
  if (e instanceof TypeError && /fetch failed/i.test(e.message)) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    const where = server ? ` ${server}` : '';
    return new CliError(
      EXIT.SERVER,
      `无法连接服务器${where}：${cause?.code ?? cause?.message ?? e.message}（检查地址，或用 tianji login --server <url> 换一个）`,
      'UNREACHABLE',
    );
  }
  return new CliError(EXIT.SERVER, `出错了：${e instanceof Error ? e.message : String(e)}`);
}
