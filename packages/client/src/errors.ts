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
    const message = typeof b.message === 'string' ? b.message : typeof body === 'string' && body ? body : res.statusText || `HTTP ${res.status}`;
    return new ApiError(res.status, code, message, body);
  }
}

/** Why a session ended: the app shows the sign-in page for all of them. */
export type SignOutReason = 'logout' | 'refresh-failed' | 'no-session' | 'other-tab';

/** Thrown by a request that needs a session when there is none (never signed in, or the refresh failed). */
export class SessionEndedError extends Error {
  constructor(readonly reason: SignOutReason) {
    super(`signed out (${reason}): sign in again`);
    this.name = 'SessionEndedError';
  }
}
