import { shallowRef } from 'vue';
import { ApiError, createSession, localStorageAdapter } from '@tianji/client';
import { isUnreachable, markReachable, markUnreachable, unreachableError } from './connection';
import type { FieldErrors } from './field-errors';
import { reactiveSession, signedOutHub } from './reactive-session';

type Result<T> = { data?: T; error?: unknown; response: Response };

export interface CallOptions {
  /** The form the call submits: a validation error on one of its fields shows under that field, not as a toast. */
  form?: FieldErrors;
}

export interface AppSessionOptions {
  /** Sent as X-Client-Kind, so the session lists say 网页 or 移动端. */
  clientKind: 'web' | 'mobile';
  /** Where the refresh token lives in localStorage: each app is its own session, ended on its own. */
  storageKey: string;
  /** Shows a failed call's error (a toast in the app's UI kit); 403s go to `onForbidden` instead. */
  showError: (error: ApiError) => void;
  /** The server answered 403: the mask changed under the user, or the account must first do something. */
  onForbidden: (error: ApiError) => void;
  /** What retrying after an unanswered call does (reload the current page). */
  retry: () => void;
}

/**
 * A web app's one session: refresh token in localStorage (shared by the tabs, which coordinate their refreshes),
 * access token in memory, Vue reactivity over it, the sign-out hub, and the two ways to call the API with the same
 * error mapping: the server's error is shown (403 by `onForbidden`), no answer at all marks the server unreachable.
 */
export function createAppSession(o: AppSessionOptions) {
  const signedOut = signedOutHub();
  const securityNotice = shallowRef<string | null>(null);
  const session = createSession({
    baseUrl: location.origin,
    clientKind: o.clientKind,
    storage: localStorageAdapter(o.storageKey),
    onSignedOut: (reason, detail) => signedOut.notify(reason, detail),
    onSecurityNotice: (text) => {
      securityNotice.value = text;
    },
    onForbidden: o.onForbidden,
  });

  /** Waits for an answer; no answer marks the server unreachable and throws an UNREACHABLE ApiError. */
  async function answered<T>(p: Promise<T>): Promise<T> {
    try {
      const r = await p;
      markReachable();
      return r;
    } catch (e) {
      if (!isUnreachable(e)) throw e;
      markUnreachable(o.retry);
      throw unreachableError(e);
    }
  }

  /**
   * The failed answer as an ApiError, shown to the user: under its field when the form has it, else as the app's
   * toast, unless it is a 403 (announced by onForbidden).
   */
  function failed(err: ApiError, form?: FieldErrors): never {
    if (isUnreachable(err)) markUnreachable(o.retry);
    else if (err.status !== 403 && !form?.show(err)) o.showError(err);
    throw err;
  }

  return {
    session,
    onSignedOut: signedOut.add,
    /** The server's warning at this tab's sign-in until the app has shown it (`showSecurityNoticeOnce`). */
    securityNotice,
    ...reactiveSession(session),
    /** Unwraps a typed call (`call(session.api.GET('/api/users', …))`): its data, or an ApiError already shown. */
    async call<T>(p: Promise<Result<T>>, opts: CallOptions = {}): Promise<T> {
      const r = await answered(p);
      if (r.response.ok) return r.data as T;
      return failed(ApiError.fromBody(r.response, r.error), opts.form);
    },
    /**
     * A JSON call on a path built at run time (one content page serves many libraries, so the typed per-path calls
     * do not apply), with the same error handling as `call`.
     */
    async rawCall<T>(method: string, path: string, body?: unknown, opts: CallOptions = {}): Promise<T> {
      const res = await answered(
        session.fetch(path, {
          method,
          headers: body === undefined ? {} : { 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      );
      if (!res.ok) return failed(await ApiError.from(res), opts.form);
      return (res.status === 204 ? undefined : await res.json()) as T;
    },
  };
}
