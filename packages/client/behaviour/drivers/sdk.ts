/** The SDK driver: `@tianji/client` called directly, memory storage, learning of an ended session at its next call. */
import {
  ApiError,
  MfaRequiredError,
  ReauthRequiredError,
  SessionEndedError,
  createSession,
  memoryStorage,
  pointsIn,
  toMask,
  type SignOutDetail,
} from '../../src/index.js';
import { findMenu, type ClientDriver, type Outcome } from '../driver.js';
import { SoftAuthenticator } from '../../../server/test/soft-authenticator.js';
import type { World } from '../world.js';

export async function sdkDriver(world: World): Promise<ClientDriver> {
  const storage = memoryStorage();
  /** The program's own authenticator (a platform's, in the open: packages/server/test/soft-authenticator.ts). */
  const authenticator = new SoftAuthenticator(new URL(world.baseUrl).origin);
  let ended: SignOutDetail | undefined;
  const session = createSession({
    baseUrl: world.baseUrl,
    storage,
    onSignedOut: (_reason, detail) => {
      ended = detail;
    },
  });

  /** An openapi-fetch call as its user sees it: done, refused (the server's message) or signed out (its reason). */
  async function outcome(call: () => Promise<{ response: Response; error?: unknown }>): Promise<Outcome> {
    try {
      const { response, error } = await call();
      if (response.ok) return { kind: 'ok' };
      const e = ApiError.fromBody(response, error);
      if (response.status === 403) return { kind: 'forbidden', message: e.message };
      throw e;
    } catch (e) {
      if (e instanceof SessionEndedError)
        return { kind: 'signed-out', code: e.detail?.code, message: e.detail?.message ?? e.reason };
      throw e;
    }
  }
  const listUsers = () => session.api.GET('/api/users', { params: { query: { page: 1, pageSize: 20 } } });

  return {
    kind: 'sdk',
    async signIn(username, password, totp) {
      try {
        await session.login(username, password);
      } catch (e) {
        if (!(e instanceof MfaRequiredError) || !totp) throw e;
        await session.loginTotp(e.mfaToken, totp());
      }
    },
    async addPasskey() {
      // A fresh sign-in is its own proof of identity: no password is asked here.
      const start = await session.api.POST('/api/auth/passkeys/register/options');
      if (!start.data) throw ApiError.fromBody(start.response, start.error);
      const { options, ceremony } = start.data.data as { options: { challenge: string }; ceremony: string };
      const credential = authenticator.create(options as never);
      const added = await session.api.POST('/api/auth/passkeys', { body: { ceremony, credential } as never });
      if (!added.data) throw ApiError.fromBody(added.response, added.error);
    },
    async signInWithPasskey() {
      const { options, ceremony } = await session.passkeyLoginOptions();
      await session.loginWithPasskey(ceremony, authenticator.get(options as never));
    },
    async signInApprovedElsewhere(decide) {
      const start = await session.startDeviceLogin({ clientName: 'behaviour suite' });
      await decide(start.userCode);
      await session.completeDeviceLogin(start);
    },
    securityNotice: async () => session.securityNotice,
    async mustChangePassword() {
      return session.mustChangePassword;
    },
    changeOwnPassword: (oldPassword, newPassword) => session.changePassword(oldPassword, newPassword),
    async identity() {
      const me = session.user!;
      return { shownName: me.username, roles: me.roles.map((r) => r.name), mask: toMask(me.permissions).toString() };
    },
    async visibleActions(menu) {
      const node = findMenu(session.visibleMenus(), menu);
      return node ? pointsIn(node.permissions) : null;
    },
    async refreshMenus() {
      await session.me();
    },
    async doAction(_route, targetUsername) {
      const found = await session.api.GET('/api/users', {
        params: { query: { page: 1, pageSize: 20, keyword: targetUsername } },
      });
      if (!found.data) return outcome(async () => found); // refused before the PATCH (e.g. a password to change)
      const id = found.data.data.items[0].id;
      const result = await outcome(() =>
        session.api.PATCH('/api/users/{id}', { params: { path: { id } }, body: { nickname: '改过的昵称' } }),
      );
      // The session reloads the menus after a 403 (in the background): wait for it, as an app's next render would.
      if (result.kind === 'forbidden') await session.me();
      return result;
    },
    async prepareConcurrent() {},
    concurrentActions: (n) => Promise.all(Array.from({ length: n }, () => outcome(listUsers))),
    async storedRefreshToken() {
      return (await storage.load())!;
    },
    logout: () => session.logout(),
    async signedIn() {
      return session.signedIn;
    },
    async shownReason() {
      if (session.signedIn) await outcome(listUsers);
      return ended ? { code: ended.code, message: ended.message } : null;
    },
    async enrolTotp(password, authenticator) {
      // As an app does: try, and on ReauthRequiredError ask for the password and pass it to the same method.
      let askedForPassword = false;
      const setup = await session.setupTotp().catch((e: unknown) => {
        if (!(e instanceof ReauthRequiredError)) throw e;
        askedForPassword = true;
        return session.setupTotp({ password });
      });
      const { recoveryCodes } = await session.enableTotp(authenticator(setup.secret));
      return { askedForPassword, recoveryCodes };
    },
    async close() {
      session.close();
    },
  };
}
