import { computed, shallowRef } from 'vue';
import {
  ApiError,
  SessionEndedError,
  type createSession,
  type PermissionName,
  type RouteKey,
  type SignOutDetail,
  type SignOutReason,
} from '@tianji/client';

/**
 * Vue reactivity, event-stream watching and the sign-out hub around one `@tianji/client` session (createAppSession
 * builds each web app's session with them).
 */
type Session = ReturnType<typeof createSession>;
export type SignedOutHandler = (reason: SignOutReason, detail?: SignOutDetail) => void;

/** Handlers for the end of the session, added after it is created (the router, the sign-in page). */
export function signedOutHub() {
  const handlers: SignedOutHandler[] = [];
  return {
    notify(reason: SignOutReason, detail?: SignOutDetail) {
      for (const h of handlers) h(reason, detail);
    },
    add: (h: SignedOutHandler) => void handlers.push(h),
  };
}

/**
 * Vue reactivity over the session through a version counter bumped on every change; once signed in, it listens to the
 * server's event stream so an ended session (an operator, another device) leaves at once.
 */
export function reactiveSession(session: Session) {
  const version = shallowRef(0);
  session.subscribe(() => {
    version.value++;
    if (session.user) session.watchEvents();
  });
  return {
    /** Reactive `session.can`: templates re-render when the menus change. */
    can(menu: string, ...bits: Array<PermissionName | number>): boolean {
      void version.value;
      return session.can(menu, ...bits);
    },
    /** Reactive `session.canCall`: whether the route's own declaration passes, e.g. `canCall('PATCH /api/users/{id}')`. */
    canCall(route: RouteKey): boolean {
      void version.value;
      return session.canCall(route);
    },
    currentUser: computed(() => {
      void version.value; // re-read when the session changes
      return session.user;
    }),
    visibleMenus: computed(() => {
      void version.value;
      return session.visibleMenus();
    }),
  };
}

/** Errors already shown to the user (or leading to the sign-in page), and cancelled confirmations, need no report. */
export const isHandled = (e: unknown) =>
  e instanceof ApiError || e instanceof SessionEndedError || e === 'cancel' || e === 'close';
