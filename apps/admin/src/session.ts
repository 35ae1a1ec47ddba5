import { computed } from 'vue';
import { ElMessage } from 'element-plus';
import { createAppSession, isHandled } from '@tianji/web-core';
import { i18n, serverMessage } from './i18n';

/**
 * The app's one session (@tianji/web-core's createAppSession): refresh token in localStorage, access token in memory,
 * errors of calls shown with ElMessage in the interface language.
 */
export const { session, onSignedOut, securityNotice, can, canCall, currentUser, visibleMenus, call, rawCall } =
  createAppSession({
    clientKind: 'web',
    storageKey: 'tianji.refreshToken',
    showError: (error) => ElMessage.error(serverMessage(error)),
    onForbidden: (error) => {
      // Something the account must do first (change its password, set up two-step sign-in): say that, not 无权限.
      if (error.code === 'PASSWORD_CHANGE_REQUIRED' || error.code === 'TOTP_SETUP_REQUIRED') {
        ElMessage.warning(serverMessage(error));
        return;
      }
      // The mask changed under the user: say so; the session reloads the menus and the router re-checks the page.
      ElMessage.error(i18n.global.t('common.noPermission'));
    },
    // The page is keyed on connection.attempt (AppLayout): a retry mounts it afresh, which loads its data again.
    retry: () => undefined,
  });

/** The ids of the user's own roles, and whether one is the super administrator role: a user who is not a super
 * administrator may not change its own roles, nor the grants or status of a role it holds (403 PRIVILEGE_ESCALATION). */
export const ownRoleIds = computed(() => new Set(currentUser.value?.roles.map((r) => r.id) ?? []));
export const isSuperAdmin = computed(() => currentUser.value?.roles.some((r) => r.code === 'super_admin') ?? false);

export { isHandled };
