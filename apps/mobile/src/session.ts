import { showFailToast, showNotify } from 'vant';
import 'vant/es/toast/style';
import 'vant/es/notify/style';
import { ApiError, createSession, localStorageAdapter } from '@tianji/client';
import { isHandled, reactiveSession, signedOutHub } from '@admin/lib/reactive-session';

/**
 * The phone app's one session, as the desktop app's (apps/admin/src/session.ts): refresh token in localStorage,
 * access token in memory, sent as client kind `mobile` so the session lists say "手机". Its own storage key: the
 * desktop app and this one on the same browser are two sessions, each ended on its own.
 */
const signedOut = signedOutHub();

export const session = createSession({
  baseUrl: location.origin,
  clientKind: 'mobile',
  storage: localStorageAdapter('tianji.m.refreshToken'),
  onSignedOut: (reason, detail) => signedOut.notify(reason, detail),
  onForbidden: (error) =>
    // Something the account must do first (change its password, set up two-step sign-in) is said as the server says
    // it; otherwise the server's own word (无权限) first, then why the button was there: the grant changed meanwhile.
    error.code === 'PASSWORD_CHANGE_REQUIRED' || error.code === 'TOTP_SETUP_REQUIRED'
      ? showNotify({ type: 'warning', message: error.message })
      : showNotify({ type: 'danger', message: `${error.message}（权限已变更）` }),
});

export const onSignedOut = signedOut.add;
export const { can, canCall, currentUser } = reactiveSession(session);

type Result<T> = { data?: T; error?: unknown; response: Response };

/** Unwraps a typed call: its data, or an ApiError shown as a toast (403s are announced by onForbidden). */
export async function call<T>(p: Promise<Result<T>>): Promise<T> {
  const r = await p;
  if (r.response.ok) return r.data as T;
  const err = ApiError.fromBody(r.response, r.error);
  if (err.status !== 403) showFailToast(err.message);
  throw err;
}

export { isHandled };
