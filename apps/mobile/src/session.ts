import { showFailToast, showNotify } from 'vant';
import 'vant/es/toast/style';
import 'vant/es/notify/style';
import { createAppSession, isHandled } from '@tianji/web-core';

/**
 * The phone app's one session (@tianji/web-core's createAppSession, as the desktop app's), sent as client kind
 * `mobile` so the session lists say "移动端". Its own storage key: the desktop app and this one on the same browser
 * are two sessions, each ended on its own.
 */
export const { session, onSignedOut, securityNotice, can, canCall, currentUser, call, rawCall } = createAppSession({
  clientKind: 'mobile',
  storageKey: 'tianji.m.refreshToken',
  showError: (error) => showFailToast(error.message),
  onForbidden: (error) =>
    // Something the account must do first (change its password, set up two-step sign-in) is said as the server says
    // it; otherwise the server's own word (无权限) first, then why the button was there: the grant changed meanwhile.
    error.code === 'PASSWORD_CHANGE_REQUIRED' || error.code === 'TOTP_SETUP_REQUIRED'
      ? showNotify({ type: 'warning', message: error.message })
      : showNotify({ type: 'danger', message: `${error.message}（权限已变更）` }),
  // The page is keyed on connection.attempt (App.vue): a retry mounts it afresh, which loads its data again.
  retry: () => undefined,
});

export { isHandled };
