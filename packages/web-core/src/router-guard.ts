import type { RouteLocationNormalized, RouteLocationRaw, Router } from 'vue-router';
import { ref } from 'vue';
import type { createSession, SignOutDetail, SignOutReason } from '@tianji/client';
import { isUnreachable, markReachable, markUnreachable } from './connection';
import { signedOutText } from './signed-out';
import { TEXTS, type Lang } from './texts';

type Session = ReturnType<typeof createSession>;

export interface GuardOptions {
  session: Session;
  onSignedOut: (h: (reason: SignOutReason, detail?: SignOutDetail) => void) => void;
  /**
   * Route names: the sign-in page, the home page, the account's own page (password, devices, sign-out), and the
   * two-step sign-in set-up an account lands on while a role requires it and it is off.
   */
  names: { login: string; home: string; password: string; totp: string };
  /** Whether the signed-in user may see `to` (the menus were just reloaded). */
  allowed: (to: RouteLocationNormalized) => boolean;
  /** Shows a short message in the app's UI kit. */
  notify: (level: 'info' | 'warning' | 'error', text: string, opts?: { signedOut?: boolean }) => void;
  /** The app's words for "change your password first" and "no permission for this page". */
  texts: () => { mustChange: string; noPermission: string };
  lang?: () => Lang;
}

/**
 * The navigation rules both web apps follow, over their one session:
 * - every navigation reloads the user's menus (/api/auth/me), so a grant changed elsewhere shows at the next click,
 *   and a page the user may no longer see is left for the home page;
 * - no session: the sign-in page, which returns to where the user was headed; signed in (in any tab) while on it: on;
 * - an account that must change its password goes to the page where it can;
 * - an account whose role requires two-step sign-in it has not turned on goes to its set-up (or stays on its own page):
 *   no other page mounts to fire requests the server refuses with 403 TOTP_SETUP_REQUIRED;
 * - the session ended: the sign-in page, saying why (「已退出登录」 after one's own sign-out);
 * - no answer from the server: stay, say 「无法连接服务器」 with a retry, keep the session.
 * Returns `signedOutNotice`: why the last session ended, for the sign-in page to show until the next sign-in.
 */
export function guardRouter(router: Router, o: GuardOptions) {
  const { session } = o;
  const signedOutNotice = ref('');
  /** The navigation in progress, if any: reactions to session changes wait for it (its guard reloads the menus). */
  let pending: RouteLocationNormalized | null = null;
  router.afterEach((to) => {
    if (pending === to) pending = null;
  });

  /** While two-step sign-in must be turned on, only its set-up and the account's own page stay open. */
  const mayStayPending = (to: RouteLocationNormalized) =>
    session.pendingStep !== 'TOTP_SETUP_REQUIRED' || to.name === o.names.totp || to.name === o.names.password;

  router.beforeEach(async (to, from) => {
    pending = to;
    if (to.meta.public) return true;
    try {
      if (!session.signedIn) {
        if (!(await session.restore()))
          return { name: o.names.login, query: to.fullPath === '/' ? {} : { redirect: to.fullPath } };
      } else {
        await session.me();
      }
      markReachable();
    } catch (e) {
      if (isUnreachable(e)) {
        // The session is still good: stay where we are (or on a blank shell at start), and try again on request.
        markUnreachable(() => void router.push(to.fullPath));
        pending = null;
        return false;
      }
      return { name: o.names.login, query: { redirect: to.fullPath } };
    }
    // A password an operator set (or the generated first one) must be changed before anything else: the server answers
    // every other route 403 PASSWORD_CHANGE_REQUIRED until then.
    if (session.mustChangePassword && to.name !== o.names.password) {
      o.notify('warning', o.texts().mustChange);
      return { name: o.names.password };
    }
    if (!mayStayPending(to)) {
      // The set-up itself says why; bounced from another page of the app, the user is told why the click led here.
      if (from.matched.length > 0 && !from.meta.public) o.notify('warning', totpSetupText(o.lang?.() ?? 'zh'));
      return { name: o.names.totp };
    }
    if (!o.allowed(to)) {
      o.notify('error', o.texts().noPermission);
      return to.name === o.names.home ? true : { name: o.names.home };
    }
    return true;
  });

  session.subscribe(() => {
    // Signed in: why the previous session ended no longer applies. Cleared at once, even while a navigation is under
    // way, so an old 「已退出登录」 never greets the user at the end of the next session.
    if (session.user) signedOutNotice.value = '';
    if (pending) return;
    const route = router.currentRoute.value;
    // Signed in (here or in another tab) while this tab shows the sign-in page: go on to where the user was headed.
    if (route.name === o.names.login) {
      if (!session.user) return;
      const to = route.query.redirect;
      void router.replace(typeof to === 'string' && to.startsWith('/') ? to : '/');
      return;
    }
    // A role now requires two-step sign-in (a 403 reloaded the user): on to its set-up.
    if (session.user && !mayStayPending(route)) void router.replace({ name: o.names.totp });
    // The menus changed (e.g. after a 403): leave a page the user may no longer see.
    else if (session.user && !o.allowed(route)) void router.replace({ name: o.names.home });
  });

  o.onSignedOut((reason, detail) => {
    const route = router.currentRoute.value;
    const said = signedOutText(reason, detail, o.lang?.() ?? 'zh');
    signedOutNotice.value = said?.text ?? '';
    if (route.meta.public) return;
    if (said) o.notify(said.level, said.text, { signedOut: true });
    const to: RouteLocationRaw = {
      name: o.names.login,
      query: reason === 'logout' ? {} : { redirect: route.fullPath },
    };
    void router.replace(to);
  });

  // Coming back to the tab: pick up grants changed meanwhile.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && session.user) void session.me().catch(() => undefined);
  });

  return { signedOutNotice };
}

/** Why the account lands on the two-step sign-in set-up: the server's own sentence (generated ERROR_MESSAGES). */
export const totpSetupText = (lang: Lang): string => TEXTS[lang].errors.TOTP_SETUP_REQUIRED;
