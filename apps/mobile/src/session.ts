import { computed, shallowRef } from 'vue';
import { showFailToast, showNotify } from 'vant';
import 'vant/es/toast/style';
import 'vant/es/notify/style';
import {
  ApiError,
  SessionEndedError,
  createSession,
  localStorageAdapter,
  type PermissionName,
  type RouteKey,
  type SignOutDetail,
} from '@tianji/client';

/**
 * The phone app's one session, as the desktop app's (apps/admin/src/session.ts): refresh token in localStorage,
 * access token in memory, sent as client kind `mobile` so the session lists say "手机". Its own storage key: the
 * desktop app and this one on the same browser are two sessions, each ended on its own.
 */
export const session = createSession({
  baseUrl: location.origin,
  clientKind: 'mobile',
  storage: localStorageAdapter('tianji.m.refreshToken'),
  onSignedOut: (reason, detail) => {
    for (const h of signedOutHandlers) h(reason, detail);
  },
  onForbidden: (error) =>
    // Something the account must do first (change its password, set up two-step sign-in) is said as the server says
    // it; otherwise the server's own word (无权限) first, then why the button was there: the grant changed meanwhile.
    error.code === 'PASSWORD_CHANGE_REQUIRED' || error.code === 'TOTP_SETUP_REQUIRED'
      ? showNotify({ type: 'warning', message: error.message })
      : showNotify({ type: 'danger', message: `${error.message}（权限已变更）` }),
});

type SignedOutHandler = (reason: string, detail?: SignOutDetail) => void;
const signedOutHandlers: SignedOutHandler[] = [];
export const onSignedOut = (h: SignedOutHandler) => void signedOutHandlers.push(h);

const version = shallowRef(0);
session.subscribe(() => {
  version.value++;
  // Signed in: listen for the server ending this session (an operator, another device), to leave at once.
  if (session.user) session.watchEvents();
});

/** Reactive `session.can`: templates re-render when the menus change. */
export function can(menu: string, ...bits: Array<PermissionName | number>): boolean {
  void version.value;
  return session.can(menu, ...bits);
}

/** Reactive `session.canCall`: whether the route's own declaration passes, e.g. `canCall('PATCH /api/users/{id}')`. */
export function canCall(route: RouteKey): boolean {
  void version.value;
  return session.canCall(route);
}

export const currentUser = computed(() => {
  void version.value;
  return session.user;
});

type Result<T> = { data?: T; error?: unknown; response: Response };

/** Unwraps a typed call: its data, or an ApiError shown as a toast (403s are announced by onForbidden). */
export async function call<T>(p: Promise<Result<T>>): Promise<T> {
  const r = await p;
  if (r.response.ok) return r.data as T;
  const err = ApiError.fromBody(r.response, r.error);
  if (err.status !== 403) showFailToast(err.message);
  throw err;
}

/** Errors already shown to the user (or leading to the sign-in page), and cancelled confirmations, need no report. */
export const isHandled = (e: unknown) =>
  e instanceof ApiError || e instanceof SessionEndedError || e === 'cancel' || e === 'close';
