/**
 * Stable, named error codes. Admin API errors render as `{code, message}`; public API errors render
 * in the `{code, msg, data, timestamp}` envelope (see plugins/error-handler.ts).
 */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  /** The write would give someone more than the actor holds (admin/escalation.ts); FORBIDDEN stays for a missing route bit. */
  PRIVILEGE_ESCALATION: 403,
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
export const unauthorized = (message: string) => new AppError('UNAUTHORIZED', message);
export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const conflict = (message: string) => new AppError('CONFLICT', message);
export const validation = (message: string) => new AppError('VALIDATION_ERROR', message);

/**
 * A public-API failure with a message for the caller: which parameter, what was given, what is allowed.
 * Rendered as HTTP 500 in the envelope, as the public contract requires.
 */
export class LookupError extends Error {
  constructor(message: string) {
    super(message);
  }
}

/** `参数 <name> 无效：<what is wrong / allowed>，收到 "<value>"` — the one wording every public error uses. */
export function paramError(name: string, allowed: string, given?: unknown): LookupError {
  return new LookupError(`参数 ${name} 无效：${allowed}${given === undefined ? '' : `，收到 ${quote(given)}`}`);
}

export function quote(v: unknown): string {
  let s = typeof v === 'string' ? v : JSON.stringify(v);
  if (s === undefined) s = String(v);
  if (s.length > 64) s = `${s.slice(0, 61)}...`;
  return `"${s}"`;
}
