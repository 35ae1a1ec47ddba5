import { computed, reactive, ref } from 'vue';
import type { createAppSession } from './app-session';
import type { FieldErrors } from './field-errors';
import type { Lang } from './texts';

type AppSession = Pick<ReturnType<typeof createAppSession>, 'session' | 'call' | 'currentUser' | 'onSignedOut'>;

/** Where the lock is kept: the username of who locked this browser's app (one key, so a reload stays locked). */
export const SCREEN_LOCK_KEY = 'tianji.screenLock';

/** The lock screen's words in both interface languages, the same on every app that draws one. */
const SCREEN_LOCK_TEXTS = {
  zh: { lock: '锁屏', locked: '屏幕已锁定', lockHint: '输入登录密码解锁', password: '登录密码', unlock: '解锁' },
  en: {
    lock: 'Lock screen',
    locked: 'Screen locked',
    lockHint: 'Enter your password to unlock',
    password: 'Password',
    unlock: 'Unlock',
  },
};
export const screenLockTexts = (lang: Lang = 'zh') => SCREEN_LOCK_TEXTS[lang];

/**
 * The lock screen of vben-admin and RuoYi (锁屏): the person walks away, the page is covered until they type their
 * password again. The session keeps running underneath (its tokens refresh, nothing signs out), and the lock is kept
 * in `storage` for the user who locked, so a reload, or another browser tab of the app, stays locked. Unlocking sends
 * the password to POST /api/auth/reauth, the server's own proof of identity (a wrong password is counted by its
 * sign-in throttle and shows under `form`'s `password` field). Signing out forgets the lock: signing in proves it too.
 *
 * `key` is the storage key: each app on the origin has its own session (the phone app's and the desktop's are two), so
 * each has its own lock.
 *
 * This hides the page from a passer-by; it is no security boundary against someone at the keyboard with the browser's
 * developer tools (nor is vben-admin's): the session is as alive as before.
 */
export function screenLock(
  app: AppSession,
  o: { storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>; form?: FieldErrors; key?: string },
) {
  const { session, call, currentUser } = app;
  const key = o.key ?? SCREEN_LOCK_KEY;
  const holder = ref(o.storage.getItem(key));
  const state = reactive({ password: '', busy: false });
  const forget = () => {
    o.storage.removeItem(key);
    holder.value = null;
  };
  app.onSignedOut(forget);
  // Another tab of the app locked or unlocked.
  if (typeof window !== 'undefined')
    window.addEventListener('storage', (e) => {
      if (e.key === key) holder.value = e.newValue;
    });

  return {
    state,
    /** Whether the signed-in user's page is covered. */
    locked: computed(() => !!currentUser.value && holder.value === currentUser.value.username),
    lock(): void {
      const who = currentUser.value?.username;
      if (!who) return;
      o.form?.clear();
      state.password = '';
      o.storage.setItem(key, who);
      holder.value = who;
    },
    /** Sends the typed password; true when it was right and the page shows again. */
    async unlock(): Promise<boolean> {
      o.form?.clear();
      state.busy = true;
      try {
        await call(session.api.POST('/api/auth/reauth', { body: { password: state.password } }), { form: o.form });
      } catch {
        // Under the field (a wrong password), or the app's toast (too many attempts, no answer): still locked.
        return false;
      } finally {
        state.busy = false;
      }
      state.password = '';
      forget();
      return true;
    },
  };
}
