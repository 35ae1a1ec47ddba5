/**
 * Stable, named error codes. Admin API errors render as `{code, message}`; public API errors render
 * in the `{code, msg, data, timestamp}` envelope (see http/error-handler.ts).
 */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  /** Device sign-in (RFC 8628 §3.5): not approved yet, poll again after the interval. */
  AUTHORIZATION_PENDING: 400,
  /** Device sign-in: polled sooner than the interval, which grows by 5 s. */
  SLOW_DOWN: 400,
  /** Device sign-in: the person refused it, or the approval no longer stands. */
  ACCESS_DENIED: 400,
  /** Device sign-in: the code expired or was already used; start again. */
  EXPIRED_TOKEN: 400,
  UNAUTHORIZED: 401,
  TOKEN_EXPIRED: 401,
  SESSION_ENDED: 401,
  /** An operator ended this one session (this device); the user's other sessions live on. */
  SESSION_REVOKED: 401,
  FORCED_LOGOUT: 401,
  ACCOUNT_DISABLED: 401,
  PASSWORD_CHANGED: 401,
  REFRESH_REUSED: 401,
  REFRESH_SUPERSEDED: 401,
  /** Public API: the presented key is wrong, revoked or expired (one answer for all three: it reveals nothing). */
  API_KEY_INVALID: 401,
  /** Public API: the operator requires a key for this endpoint group and none was sent. */
  API_KEY_REQUIRED: 401,
  FORBIDDEN: 403,
  /** Public API: the key may not call this group, or not from this origin or address. */
  API_KEY_NOT_ALLOWED: 403,
  /** The write would give someone more than the actor holds (admin/escalation.ts); FORBIDDEN stays for a missing route bit. */
  PRIVILEGE_ESCALATION: 403,
  /** The password was set by an operator (or generated): only changing it, /me, sessions and logout work meanwhile. */
  PASSWORD_CHANGE_REQUIRED: 403,
  /** A role of the user requires TOTP and it is not set up: only setting it up, /me, sessions and logout work. */
  TOTP_SETUP_REQUIRED: 403,
  /** An account-security change needs a proof of identity newer than a few minutes (admin/auth/reauth.ts). */
  REAUTH_REQUIRED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  SUPER_ADMIN_PROTECTED: 409,
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.statusCode = ERROR_STATUS[code];
  }
}

/** The exact body the contract fixes for a failed permission check. */
export const FORBIDDEN_MESSAGE = '无权限';

export const forbidden = () => new AppError('FORBIDDEN', FORBIDDEN_MESSAGE);
/** What an account must do before anything else; a route allows it by listing the code in `config.whilePending`. */
export const PENDING_MESSAGES = {
  PASSWORD_CHANGE_REQUIRED: '请先修改密码：当前密码由管理员设置或自动生成，修改后才能继续操作',
  TOTP_SETUP_REQUIRED:
    '你所属的角色要求两步验证：请先在个人资料中启用 TOTP 两步验证（或退出后使用通行密钥登录），之后才能继续操作',
} as const;
export type PendingCode = keyof typeof PENDING_MESSAGES;
/** For `whilePending`: the routes an account needs to get out of either state (me, sessions, logout, password). */
export const ANY_PENDING: readonly PendingCode[] = ['PASSWORD_CHANGE_REQUIRED', 'TOTP_SETUP_REQUIRED'];

export const unauthorized = (message: string) => new AppError('UNAUTHORIZED', message);

/** Why an account-security change is refused until the person proves who they are again (admin/auth/reauth.ts). */
export const REAUTH_MESSAGE =
  '此操作需要先验证身份：请输入当前密码（已启用两步验证时也可输入验证码），验证后 10 分钟内有效';
/** 403 REAUTH_REQUIRED: the client asks for the proof, sends it to POST /api/auth/reauth, then retries. */
export const reauthRequired = () => new AppError('REAUTH_REQUIRED', REAUTH_MESSAGE);

/** The answers of a device's poll (POST /api/auth/device/token) other than its session, as RFC 8628 names them. */
export const DEVICE_POLL_MESSAGES = {
  AUTHORIZATION_PENDING: '等待在浏览器中批准…',
  SLOW_DOWN: '请求过于频繁，请放慢轮询',
  ACCESS_DENIED: '登录请求已被拒绝',
  EXPIRED_TOKEN: '授权码已过期，请重新运行 tianji login --web',
} as const;
export type DevicePollCode = keyof typeof DEVICE_POLL_MESSAGES;
/** A poll's answer; `detail` (English, for programs) follows the Chinese message. */
export const devicePoll = (code: DevicePollCode, detail?: string) =>
  new AppError(code, detail ? `${DEVICE_POLL_MESSAGES[code]}（${detail}）` : DEVICE_POLL_MESSAGES[code]);

/** Why a token no longer works: every such 401 carries one of these codes, so a client can tell the user. */
export const SIGNED_OUT_MESSAGES = {
  TOKEN_EXPIRED: '登录已过期，请重新登录',
  SESSION_ENDED: '会话已结束（已在别处退出或被管理员下线），请重新登录',
  SESSION_REVOKED: '此设备已被管理员下线，请重新登录',
  FORCED_LOGOUT: '你已被管理员强制下线，请重新登录',
  ACCOUNT_DISABLED: '账号已停用，请联系管理员',
  PASSWORD_CHANGED: '密码已修改，请使用新密码重新登录',
  REFRESH_REUSED: '检测到刷新令牌被重复使用，为安全起见该会话已结束，请重新登录',
  REFRESH_SUPERSEDED: '该刷新令牌刚被并发请求使用过，请使用最新的令牌（会话仍然有效）',
} as const;
export type SignedOutCode = keyof typeof SIGNED_OUT_MESSAGES;

export const isSignedOutCode = (v: unknown): v is SignedOutCode =>
  typeof v === 'string' && Object.hasOwn(SIGNED_OUT_MESSAGES, v);

/** A 401 with its reason code; `detail` (English, for logs and developers) follows the Chinese message. */
export const signedOut = (code: SignedOutCode, detail?: string) =>
  new AppError(code, detail ? `${SIGNED_OUT_MESSAGES[code]}（${detail}）` : SIGNED_OUT_MESSAGES[code]);
/** The one answer to a wrong, revoked or expired API key (the public API never says which). */
export const API_KEY_INVALID_MESSAGE = '接口密钥无效或已失效';

/** The records a 404 names, in Chinese first: `notFound('user')` answers 「用户不存在 (user not found)」. */
const RECORD_NAMES = {
  user: '用户',
  role: '角色',
  menu: '菜单',
  'parent menu': '上级菜单',
  session: '会话',
  'api key': '接口密钥',
  passkey: '通行密钥',
} as const;
export type RecordName = keyof typeof RECORD_NAMES;
/** 404 for a record: a name from RECORD_NAMES, or `{zh, en}` for one named elsewhere (a content library's entry). */
export const notFound = (what: RecordName | { zh: string; en: string }) => {
  const [zh, en] = typeof what === 'string' ? [RECORD_NAMES[what], what] : [what.zh, what.en];
  return new AppError('NOT_FOUND', `${zh}不存在 (${en} not found)`);
};
export const conflict = (message: string) => new AppError('CONFLICT', message);
export const validation = (message: string) => new AppError('VALIDATION_ERROR', message);

/**
 * A public-API failure with a message for the caller: which parameter, what was given, what is allowed.
 * Rendered as HTTP 500 in the envelope, as the public contract requires. `fault` says whose it is for usage and
 * /metrics: the caller's (a bad parameter, nothing matches it) unless the server could not serve (busy, no content).
 */
export class LookupError extends Error {
  constructor(
    message: string,
    readonly fault: 'caller' | 'server' = 'caller',
  ) {
    super(message);
  }
}

/**
 * `参数 <name> 无效：<what is wrong / allowed>，收到 "<value>"` — the one wording of every parameter error, public
 * and admin, hand-thrown or from schema validation.
 *
 * @example invalidParamMessage('date', '须为 YYYY-MM-DD', '2025-13-01') // 参数 date 无效：须为 YYYY-MM-DD，收到 "2025-13-01"
 */
export function invalidParamMessage(name: string, allowed: string, given?: unknown): string {
  return `参数 ${name} 无效：${allowed}${given === undefined ? '' : `，收到 ${quote(given)}`}`;
}

/** A public-API parameter error (the envelope's HTTP 500). */
export function paramError(name: string, allowed: string, given?: unknown): LookupError {
  return new LookupError(invalidParamMessage(name, allowed, given));
}

/** An admin-API field error (VALIDATION_ERROR, HTTP 400) for rules a schema cannot express. */
export function fieldError(field: string, allowed: string, given?: unknown): AppError {
  return new AppError('VALIDATION_ERROR', invalidParamMessage(field, allowed, given));
}

export function quote(v: unknown): string {
  let s = typeof v === 'string' ? v : JSON.stringify(v);
  if (s === undefined) s = String(v);
  if (s.length > 64) s = `${s.slice(0, 61)}...`;
  return `"${s}"`;
}
