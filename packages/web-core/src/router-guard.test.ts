import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMemoryHistory, createRouter } from 'vue-router';
import type { Me, SignOutDetail, SignOutReason } from '@tianji/client';
import { guardRouter, type GuardOptions } from './router-guard';

/** Just enough of the SDK session for the guard: who is signed in, restore, me, and change notices. */
function fakeSession() {
  const listeners = new Set<() => void>();
  let restoring: () => Promise<boolean> = async () => false;
  const s = {
    user: null as Me | null,
    signedIn: false,
    mustChangePassword: false,
    pendingStep: null,
    restore: () => restoring(),
    me: async () => s.user as Me,
    subscribe(fn: () => void) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    /** What restore() does from now on. */
    restoreWith(how: () => Promise<boolean>) {
      restoring = how;
    },
    signIn() {
      s.user = { id: 'u1', username: 'lily' } as Me;
      s.signedIn = true;
      for (const fn of listeners) fn();
    },
    dropSession() {
      s.user = null;
      s.signedIn = false;
      for (const fn of listeners) fn();
    },
  };
  return s;
}

describe('the sign-in page’s notice of why the last session ended', () => {
  beforeAll(() => {
    vi.stubGlobal('document', { addEventListener: () => {}, visibilityState: 'visible' });
  });
  afterAll(() => {
    vi.unstubAllGlobals();
  });

  it('「已退出登录」 is gone once the user signs in again, and does not come back when a later session ends', async () => {
    const session = fakeSession();
    let signedOut: (reason: SignOutReason, detail?: SignOutDetail) => void = () => {};
    const router = createRouter({
      history: createMemoryHistory(),
      routes: [
        { path: '/login', name: 'login', component: {}, meta: { public: true } },
        { path: '/', name: 'home', component: {} },
        { path: '/me', name: 'me', component: {} },
      ],
    });
    const { signedOutNotice } = guardRouter(router, {
      session: session as unknown as GuardOptions['session'],
      onSignedOut: (h) => {
        signedOut = h;
      },
      names: { login: 'login', home: 'home', password: 'me', totp: 'me' },
      allowed: () => true,
      notify: () => {},
      texts: () => ({ mustChange: '', noPermission: '' }),
    });
    session.signIn();
    await router.push('/');
    expect(router.currentRoute.value.name).toBe('home');

    // Signed out on purpose: the sign-in page says so.
    session.dropSession();
    signedOut('logout');
    await vi.waitFor(() => expect(router.currentRoute.value.name).toBe('login'));
    expect(signedOutNotice.value).toBe('已退出登录');

    // Signed in again while a navigation is under way: the page being opened restores the session (as after signing in
    // in another tab), which tells the subscribers before the navigation ends.
    session.restoreWith(async () => {
      session.signIn();
      return true;
    });
    await router.push('/me');
    expect(router.currentRoute.value.name).toBe('me');
    expect(signedOutNotice.value).toBe('');

    // That session ends without a word from the server (its next page finds no session): no stale 「已退出登录」.
    session.dropSession();
    session.restoreWith(async () => false);
    await router.push('/');
    expect(router.currentRoute.value.name).toBe('login');
    expect(signedOutNotice.value).toBe('');
  });
});
