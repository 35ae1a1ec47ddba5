import { screenLock, useFieldErrors } from '@tianji/web-core';
import { i18n } from '../i18n';
import { call, currentUser, onSignedOut, session } from '../session';

/** The wrong password of the lock screen, under its field (「登录密码无效：密码不正确」). */
export const lockForm = useFieldErrors(() => ({ password: i18n.global.t('shell.password') }));
/** The app's lock screen (锁屏 in the user menu; LockScreen.vue draws it), kept in localStorage across reloads. */
export const lock = screenLock({ session, call, currentUser, onSignedOut }, { storage: localStorage, form: lockForm });
