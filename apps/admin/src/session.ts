import { computed } from 'vue';
import { ElMessage } from 'element-plus';
import { ApiError, createSession, localStorageAdapter } from '@tianji/client';
import { isHandled, reactiveSession, signedOutHub } from './lib/reactive-session';
import { i18n, serverMessage } from './i18n';

/**
 * The app's one session: refresh token in localStorage (shared by the tabs, which coordinate their refreshes),
 * access token in memory. Vue reactivity follows it through a version counter bumped on every change.
 */
const signedOut = signedOutHub();

export const session = createSession({
  baseUrl: location.origin,
  clientKind: 'web',
  storage: localStorageAdapter('tianji.refreshToken'),
  onSignedOut: (reason, detail) => signedOut.notify(reason, detail),
  onForbidden: (error) => {
    // Something the account must do first (change its password, set up two-step sign-in): say that, not 无权限.
    if (error.code === 'PASSWORD_CHANGE_REQUIRED' || error.code === 'TOTP_SETUP_REQUIRED') {
      ElMessage.warning(serverMessage(error));
      return;
    }
    // The mask changed under the user: say so; the session reloads the menus and the router re-checks the page.
    ElMessage.error(i18n.global.t('common.noPermission'));
  },
});

export const onSignedOut = signedOut.add;
export const { can, canCall, currentUser, visibleMenus } = reactiveSession(session);
/** The ids of the user's own roles, and whether one is the super administrator role: a user who is not a super
 * administrator may not change its own roles, nor the grants or status of a role it holds (403 PRIVILEGE_ESCALATION). */
export const ownRoleIds = computed(() => new Set(currentUser.value?.roles.map((r) => r.id) ?? []));
export const isSuperAdmin = computed(() => currentUser.value?.roles.some((r) => r.code === 'super_admin') ?? false);

type Result<T> = { data?: T; error?: unknown; response: Response };

/**
 * Unwraps a typed call: its data, or an ApiError. Errors other than 403 (already announced by onForbidden) and
 * the end of the session (the router shows the sign-in page) are shown to the user here.
 */
export async function call<T>(p: Promise<Result<T>>): Promise<T> {
  const r = await p;
  if (r.response.ok) return r.data as T;
  const err = ApiError.fromBody(r.response, r.error);
  if (err.status !== 403) ElMessage.error(serverMessage(err));
  throw err;
}

export { isHandled };
