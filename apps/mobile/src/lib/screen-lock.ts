import { screenLock, screenLockTexts, useFieldErrors } from '@tianji/web-core';
import { call, currentUser, onSignedOut, session } from '../session';

/** The wrong password of the lock screen, under its field (「登录密码无效：密码不正确」, as the desktop says it). */
export const lockForm = useFieldErrors(() => ({ password: screenLockTexts('zh').password }));
/**
 * The phone app's lock screen (锁定屏幕 on 我的; LockScreen.vue draws it), kept in localStorage across reloads under its
 * own key: the desktop app on the same origin is another session with its own lock.
 */
export const lock = screenLock(
  { session, call, currentUser, onSignedOut },
  { storage: localStorage, form: lockForm, key: 'tianji.m.screenLock' },
);
