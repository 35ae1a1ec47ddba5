/**
 * @tianji/client in a browser with localStorage: the session survives reloads and is shared by every tab of the
 * origin (one refresh between them: Web Locks + BroadcastChannel), and the server's notice of an ended session
 * (forced sign-out, password changed elsewhere, account disabled) arrives at once on the event stream.
 * A browser module: bundle it with your app (Vite, esbuild); the admin app's src/session.ts is the full version.
 */
import { createSession, localStorageAdapter } from '@tianji/client';

export const session = createSession({
  baseUrl: location.origin,
  clientKind: 'web',
  storage: localStorageAdapter('tianji.refreshToken'),
  // detail is the server's reason, e.g. {code: 'FORCED_LOGOUT', message: '你已被管理员强制下线，请重新登录'}.
  onSignedOut: (reason, detail) => {
    if (detail) alert(detail.message);
    if (reason !== 'logout') location.assign('/login');
  },
  onForbidden: (e) => console.warn(e.message), // 无权限: the session reloads the menus right after
});

/** On start: resume the stored session (null when there is none), then listen for the server's notices. */
export async function start(): Promise<void> {
  const me = await session.restore();
  if (!me) return location.assign('/login');
  session.watchEvents();
  // Show or hide controls from the same declaration the server enforces.
  document.querySelectorAll<HTMLElement>('[data-route]').forEach((el) => {
    el.hidden = !session.canCall(el.dataset.route as Parameters<typeof session.canCall>[0]);
  });
}

export async function signIn(username: string, password: string): Promise<void> {
  await session.login(username, password);
  session.watchEvents();
}
