/**
 * The shared output and exit-code layer: every command prints through here, and every failure ends here with a
 * documented exit code (see EXIT).
 */
import Table from 'cli-table3';
import { ApiError, SessionEndedError, beijingTime } from '@tianji/client';

/** Exit codes scripts can rely on (`tianji --help` and docs/guide/cli-reference.md list them with EXIT_MEANING). */
export const EXIT = { OK: 0, USAGE: 2, FORBIDDEN: 3, SIGNED_OUT: 4, SERVER: 5, NOT_FOUND: 6 } as const;

/** What each exit code means, in EXIT's order (typed: a new code needs its meaning here). */
export const EXIT_MEANING: Record<keyof typeof EXIT, string> = {
  OK: '成功',
  USAGE: '用法错误：未知的命令或选项、取值不合法、没有这个配置（消息写明允许什么）',
  FORBIDDEN: '无权限（403）：服务器的消息，如「无权限」或防提权的原因',
  SIGNED_OUT: '未登录，或会话已结束（刷新被拒、密码已改、账号停用）：服务器给出的原因',
  SERVER: '其他服务器错误（4xx/5xx，如导入时重复），或连不上服务器',
  NOT_FOUND: '要找的记录不存在（404 NOT_FOUND，如 tianji users get 999）：用户、角色、菜单、会话或接口密钥',
};

/** The exit codes as the lines of `tianji --help`. */
export const exitCodesText = () =>
  `\n退出码：\n${(Object.keys(EXIT) as Array<keyof typeof EXIT>).map((k) => `  ${EXIT[k]}  ${EXIT_MEANING[k]}`).join('\n')}`;

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

const CODE_OF_EXIT: Record<number, string> = {
  2: 'USAGE',
  3: 'FORBIDDEN',
  4: 'SIGNED_OUT',
  5: 'SERVER_ERROR',
  6: 'NOT_FOUND',
};

export const usageError = (message: string) => new CliError(EXIT.USAGE, message);

/**
 * What to run when the account must do something first (the server answers every other command 403 with the code):
 * one sentence, said right after `tianji login` and for any command refused so.
 */
export const PENDING_STEPS: Record<string, string> = {
  PASSWORD_CHANGE_REQUIRED:
    '当前密码由管理员设置或自动生成，必须先修改密码，其他操作才会放行：请运行 tianji password 修改密码' +
    '（you must change your password first: run `tianji password`）',
  TOTP_SETUP_REQUIRED:
    '你所属的角色要求两步验证，开启前其他操作都会被拒绝：请先运行 tianji totp setup 扫描二维码，' +
    '再运行 tianji totp enable --code <6位验证码> 开启' +
    '（your role requires two-step sign-in: run `tianji totp setup`, then `tianji totp enable --code <code>`）',
};

/** Prints a failure on stderr: `tianji: <message>`, or with --json one JSON object scripts can read. */
export function reportFailure(
  failure: CliError,
  asJson: boolean,
  io: { writeErr(text: string): void } = { writeErr: (text) => process.stderr.write(text) },
): void {
  io.writeErr(
    asJson
      ? `${JSON.stringify({ error: { code: failure.code, message: failure.message, exitCode: failure.exitCode } })}\n`
      : `tianji: ${failure.message}\n`,
  );
}

/** `names[key][l]`: a server code by its name, or the code itself when this CLI is older than the server's names. */
export const nameIn = (names: Record<string, { zh: string; en: string }>, key: string, l: 'zh' | 'en') =>
  Object.hasOwn(names, key) ? names[key][l] : key;

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
      value: (r: Record<string, unknown>) => (/At$|time$/i.test(k) ? beijingTime(r[k]) : r[k]),
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
export function displayWidth(s: string): number {
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
    if (e.status === 403 && Object.hasOwn(PENDING_STEPS, e.code))
      return new CliError(EXIT.FORBIDDEN, PENDING_STEPS[e.code], e.code);
    if (e.status === 403)
      return new CliError(EXIT.FORBIDDEN, e.message.startsWith('无权限') ? text : `无权限：${text}`, e.code);
    if (e.status === 401) return new CliError(EXIT.SIGNED_OUT, `会话已结束：${text}；请重新运行 tianji login`, e.code);
    if (e.status === 404 && (e.code === 'HTTP_404' || /^no route/i.test(e.message)))
      return new CliError(EXIT.SERVER, `服务器没有这个接口（HTTP 404）：需要更新的 tianji 服务器`, 'NO_ROUTE');
    // The record asked for is not there (「用户不存在 (user not found)」): its own exit code, so a script can tell
    // "no such user" from a failure.
    if (e.status === 404) return new CliError(EXIT.NOT_FOUND, `${e.message}（${e.code}）`, e.code);
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
