/**
 * Thrown by `session.login()` when the account has TOTP enabled: the password was right, and the sign-in finishes
 * with `session.loginTotp(error.mfaToken, code)` (a 6-digit code or a recovery code) within 5 minutes.
 */
export class MfaRequiredError extends Error {
  readonly code = 'MFA_REQUIRED';
  constructor(readonly mfaToken: string) {
    super('需要两步验证码 (TOTP code required)');
    this.name = 'MfaRequiredError';
  }
}

/** An admin API error answer: the HTTP status and the server's `{code, message}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** Reads `{code, message}` from a failed response, leaving its body unread for the caller. */
  static async from(res: Response): Promise<ApiError> {
    let body: unknown;
    try {
      body = await res.clone().json();
    } catch {
      body = undefined;
    }
    return ApiError.fromBody(res, body);
  }

  /** From a body already parsed (openapi-fetch's `error`); made up from the status when it is not `{code, message}`. */
  static fromBody(res: Response, body: unknown): ApiError {
    const b = (body && typeof body === 'object' ? body : {}) as { code?: unknown; message?: unknown };
    const code = typeof b.code === 'string' ? b.code : `HTTP_${res.status}`;
    const message =
      typeof b.message === 'string'
        ? b.message
        : typeof body === 'string' && body
          ? body
          : res.statusText || `HTTP ${res.status}`;
    return code === 'REAUTH_REQUIRED'
      ? new ReauthRequiredError(message, body)
      : new ApiError(res.status, code, message, body);
  }
}

/**
 * 403 REAUTH_REQUIRED: an account-security change (enrolling TOTP) needs a proof of identity from the last few
 * minutes. Ask the person for their current password (or, with TOTP on, a code), then either pass it to the method
 * as `proof` or call `session.reauthenticate(proof)` and try again. `message` is the server's Chinese sentence.
 */
export class ReauthRequiredError extends ApiError {
  constructor(message: string, body?: unknown) {
    super(403, 'REAUTH_REQUIRED', message, body);
    this.name = 'ReauthRequiredError';
  }
}

/** Why a device sign-in ended without a session: refused by the person, or the code expired or was used. */
export type DeviceLoginRefusal = 'ACCESS_DENIED' | 'EXPIRED_TOKEN';

/**
 * Thrown by `session.completeDeviceLogin()` when the sign-in will not complete: ACCESS_DENIED (the person refused it
 * in the browser) or EXPIRED_TOKEN (the code expired or was already used: start again). `message` is the server's
 * Chinese sentence (「登录请求已被拒绝」, 「授权码已过期，请重新运行 tianji login --web」): show it.
 */
export class DeviceLoginError extends ApiError {
  constructor(
    readonly refusal: DeviceLoginRefusal,
    message: string,
    body?: unknown,
  ) {
    super(400, refusal, message, body);
    this.name = 'DeviceLoginError';
  }
}

/** Proof that the person is the account's owner: the current password, or (TOTP on) a 6-digit or recovery code. */
export type IdentityProof = { password: string } | { code: string };

/**
 * Why a session ended: the app shows the sign-in page for all of them. `session-ended`: the server said so on the
 * event stream (signed out elsewhere, by an operator, ...).
 */
export type SignOutReason = 'logout' | 'refresh-failed' | 'no-session' | 'other-tab' | 'session-ended';

/**
 * What the server said when it ended the session: its 401 code (TOKEN_EXPIRED, SESSION_ENDED, FORCED_LOGOUT,
 * ACCOUNT_DISABLED, PASSWORD_CHANGED, REFRESH_REUSED, ...) and its message (Chinese), to show the user.
 */
export interface SignOutDetail {
  code: string;
  message: string;
}

/** Thrown by a request that needs a session when there is none (never signed in, or the refresh failed). */
export class SessionEndedError extends Error {
  constructor(
    readonly reason: SignOutReason,
    /** The server's reason, when it gave one. */
    readonly detail?: SignOutDetail,
  ) {
    super(
      detail ? `signed out (${reason}: ${detail.code}): ${detail.message}` : `signed out (${reason}): sign in again`,
    );
    this.name = 'SessionEndedError';
  }
}
