import createClient, { type Client } from 'openapi-fetch';
import { crossContextCoordinator, localCoordinator, type Coordinator, type CoordinatorMessage } from './coordinator.js';
import {
  ApiError,
  DeviceLoginError,
  MfaRequiredError,
  ReauthRequiredError,
  SessionEndedError,
  type IdentityProof,
  type SignOutDetail,
  type SignOutReason,
} from './errors.js';
import type { components, paths } from './generated/admin-api.js';
import { ROUTE_PERMISSIONS, type RouteKey } from './generated/admin-api.js';
import { decodeClaims, lifetimeMs } from './jwt.js';
import { bitsOf, hasBits, type PermissionName } from './mask.js';
import { memoryStorage, type TokenStorage } from './storage.js';

export type Me = paths['/api/auth/me']['get']['responses'][200]['content']['application/json']['data'];
export type MenuNode = components['schemas']['MenuNode'];
type TokenPair = { accessToken: string; refreshToken: string };
/** A new TOTP secret: `secret` to type in, `otpauthUri` for an authenticator, `qrDataUrl` (PNG) to show. */
export type TotpSetup = paths['/api/auth/totp/setup']['post']['responses'][200]['content']['application/json']['data'];
/** TOTP is on: the ten recovery codes (shown only now) and how many other sessions ended (`signOutOthers`). */
export type TotpEnabled =
  paths['/api/auth/totp/enable']['post']['responses'][200]['content']['application/json']['data'];
/**
 * A device sign-in under way (`startDeviceLogin`): show `userCode` and `verificationUri` (or `verificationUriComplete`,
 * e.g. as a QR code) to the person, then wait in `completeDeviceLogin`. `verificationUri` is absolute: a root-relative
 * one from the server is resolved against the session's baseUrl.
 */
export type DeviceLoginStart =
  paths['/api/auth/device/code']['post']['responses'][200]['content']['application/json']['data'];
/** Either sign-in step's answer: the login result, or (password step only) the second step's challenge. */
type SignInAnswer = paths['/api/auth/login']['post']['responses'][200]['content']['application/json']['data'];

export interface SessionOptions {
  /** Origin of the tianji server, e.g. `location.origin` or `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** What kind of program this is, sent as X-Client-Kind so the server's session list can tell (default sdk). */
  clientKind?: 'web' | 'mobile' | 'cli' | 'sdk' | 'other';
  /** Where the refresh token lives (default: memory). */
  storage?: TokenStorage;
  /**
   * Called once when a session ends: logout, a failed refresh, a sign-out in another tab, or the server's notice on
   * the event stream. `detail` is the server's reason (code and Chinese message) when it gave one: show it.
   */
  onSignedOut?: (reason: SignOutReason, detail?: SignOutDetail) => void;
  /**
   * Called once after a sign-in whose answer carries the server's `securityNotice` (wrong second-step codes since the
   * last sign-in: someone else may hold the password). Show the text as it is, with a way to the user's sessions
   * (`GET /api/auth/sessions`); `session.securityNotice` holds it too.
   */
  onSecurityNotice?: (notice: string) => void;
  /** Called when the server answers 403 (the mask changed under the user); the session reloads `me` right after. */
  onForbidden?: (error: ApiError) => void;
  /** Refresh this long before the access token expires (default 30 s, at most a fifth of its lifetime). */
  refreshLeewayMs?: number;
  /** How long to wait for another tab to hand over the token it just refreshed (default 3 s). */
  handoverWaitMs?: number;
  /** The HTTP transport (default: global fetch). */
  fetch?: (req: Request) => Promise<Response>;
  /** The clock (default Date.now). */
  now?: () => number;
  /** Cross-context coordination (default: across tabs when the storage is shared, else within this context). */
  coordinator?: Coordinator;
}

interface AccessState {
  token: string;
  /** Local clock time at which the token expires. */
  expiresAt: number;
  lifetime: number;
}

/**
 * One signed-in session against a tianji server: the access token in memory, the refresh token in the chosen
 * storage, refresh before expiry and on a 401 — single-flight across every request and, with shared storage,
 * across every tab — and `can()` / `visibleMenus()` over the masks from /api/auth/me.
 */
export class TianjiSession {
  /** Typed calls for every admin route: `session.api.GET('/api/users', { params: { query: {...} } })`. */
  readonly api: Client<paths>;
  private readonly baseUrl: string;
  private readonly storage: TokenStorage;
  private readonly coord: Coordinator;
  private readonly transport: (req: Request) => Promise<Response>;
  private readonly now: () => number;
  private access: AccessState | null = null;
  private refreshToken: string | null = null;
  private current: Me | null = null;
  private notice: string | null = null;
  private codesLeft: number | null = null;
  private menuIndex = new Map<string, MenuNode>();
  private refreshing: Promise<string> | null = null;
  private handoverWaiters = new Set<(token: string | null) => void>();
  private events: AbortController | null = null;
  /** A password change in flight: the server ends the old session (and says so on its stream) before it answers. */
  private changingPassword: Promise<void> | null = null;
  private listeners = new Set<() => void>();

  constructor(private readonly opts: SessionOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.storage = opts.storage ?? memoryStorage();
    this.coord =
      opts.coordinator ??
      this.storage.coordinator ??
      (this.storage.sharedKey ? crossContextCoordinator(this.storage.sharedKey) : localCoordinator());
    this.coord.onMessage((m) => this.onPeerMessage(m));
    const f = opts.fetch ?? ((req: Request) => globalThis.fetch(req));
    this.transport = (req) => f(req);
    this.now = opts.now ?? Date.now;
    this.api = createClient<paths>({ baseUrl: this.baseUrl, fetch: (req) => this.fetch(req) });
  }

  /** The signed-in user with roles, aggregate mask and menu tree; null when signed out or not loaded yet. */
  get user(): Me | null {
    return this.current;
  }

  /** True while the session holds tokens (it may still fail at the next refresh). */
  get signedIn(): boolean {
    return this.access !== null || this.refreshToken !== null;
  }

  /** Calls fn after every change of tokens, user or menus. Returns the unsubscribe function. */
  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Resumes a stored session (e.g. after a reload): refreshes and loads the user. Null when there is none. */
  async restore(): Promise<Me | null> {
    if (!this.access) {
      const stored = await this.storage.load();
      if (!stored) return null;
      this.refreshToken = stored;
    }
    try {
      await this.accessToken();
      return await this.me();
    } catch (e) {
      if (e instanceof SessionEndedError) return null;
      throw e;
    }
  }

  /**
   * Signs in. For an account with TOTP enabled it throws MfaRequiredError: ask for the code, then call
   * `loginTotp(error.mfaToken, code)`. Afterwards `mustChangePassword` says whether the user must first pick a
   * new password (every other admin route answers 403 PASSWORD_CHANGE_REQUIRED until `changePassword`), and
   * `securityNotice` what the server warns of at this sign-in.
   */
  async login(username: string, password: string): Promise<Me> {
    const data = await this.signInStep('/api/auth/login', { username, password });
    if ('mfaRequired' in data && data.mfaRequired) throw new MfaRequiredError(String(data.mfaToken));
    return this.enter(data);
  }

  /** The second step of a TOTP sign-in: the token from MfaRequiredError and a 6-digit or recovery code. */
  async loginTotp(mfaToken: string, code: string): Promise<Me> {
    return this.enter(await this.signInStep('/api/auth/login/totp', { mfaToken, code }));
  }

  /**
   * The first half of a passkey sign-in: WebAuthn options for `navigator.credentials.get()` (in a browser, pass them to
   * `startAuthentication({ optionsJSON })` of @simplewebauthn/browser) and the ceremony to send back with the answer.
   * No username: the browser offers this site's passkeys. The site must be opened by host name (`localhost` locally).
   */
  async passkeyLoginOptions(): Promise<{ options: Record<string, unknown>; ceremony: string }> {
    return (await this.signInStep('/api/auth/passkeys/login/options', {})) as unknown as {
      options: Record<string, unknown>;
      ceremony: string;
    };
  }

  /**
   * Signs in with the authenticator's answer to `passkeyLoginOptions()`. A passkey is both factors: no TOTP step
   * follows, and the session satisfies a role's two-step requirement.
   */
  async loginWithPasskey(ceremony: string, credential: unknown): Promise<Me> {
    return this.enter(await this.signInStep('/api/auth/passkeys/login', { ceremony, credential }));
  }

  /**
   * Starts a sign-in approved in a browser (OAuth 2.0 device authorization grant, RFC 8628), for a program without a
   * browser of its own: show the answer's `userCode` and `verificationUri` to the person, who approves it in a
   * signed-in tianji app, then call `completeDeviceLogin(start)`. `clientName` is what the approver reads (default:
   * the program's user agent); with `username`, only that account may approve. A 429 (too many codes from this
   * address) is an ApiError.
   */
  async startDeviceLogin(opts: { clientName?: string; username?: string } = {}): Promise<DeviceLoginStart> {
    const body = {
      ...(opts.clientName ? { clientName: opts.clientName } : {}),
      ...(opts.username ? { username: opts.username } : {}),
    };
    const data = await this.signInStep<DeviceLoginStart>('/api/auth/device/code', body);
    const absolute = (uri: string) => (uri.startsWith('/') ? this.baseUrl + uri : uri);
    return {
      ...data,
      verificationUri: absolute(data.verificationUri),
      verificationUriComplete: absolute(data.verificationUriComplete),
    };
  }

  /**
   * Waits for the person to approve `start` (polling every `interval` seconds, longer after SLOW_DOWN), then holds the
   * session exactly as `login` does and returns the user. Throws DeviceLoginError when they refuse it (ACCESS_DENIED)
   * or the code expires (EXPIRED_TOKEN), with the server's Chinese message; the signal's reason when `signal` aborts.
   * `onPending` is called after each poll that found no decision yet.
   */
  async completeDeviceLogin(
    start: Pick<DeviceLoginStart, 'deviceCode' | 'interval'>,
    opts: { signal?: AbortSignal; onPending?: () => void } = {},
  ): Promise<Me> {
    let intervalMs = start.interval * 1000;
    for (;;) {
      await pause(intervalMs, opts.signal);
      const req = this.jsonRequest('POST', '/api/auth/device/token', { deviceCode: start.deviceCode });
      const res = await this.transport(opts.signal ? new Request(req, { signal: opts.signal }) : req);
      if (res.ok) return this.enter(((await res.json()) as { data: SignInAnswer }).data);
      const refused = await ApiError.from(res);
      if (refused.code === 'AUTHORIZATION_PENDING') opts.onPending?.();
      // RFC 8628 §3.5: every slow_down adds five seconds to the interval, for the rest of this sign-in.
      else if (refused.code === 'SLOW_DOWN') intervalMs += 5000;
      else if (refused.code === 'ACCESS_DENIED' || refused.code === 'EXPIRED_TOKEN')
        throw new DeviceLoginError(refused.code, refused.message, refused.body);
      else throw refused;
    }
  }

  /**
   * The server's warning at this session's sign-in, in Chinese: wrong second-step codes since the previous sign-in
   * (「自上次登录以来，你的账号有 N 次两步验证码输入错误…」). Null when it had none; the server says it once.
   */
  get securityNotice(): string | null {
    return this.notice;
  }

  /**
   * After a sign-in with a recovery code: how many unused recovery codes the account has left (tell the user, and
   * suggest new ones when few remain). Null after any other sign-in.
   */
  get recoveryCodesLeft(): number | null {
    return this.codesLeft;
  }

  /** A public sign-in call (X-Client-Kind set): its answer's `data`, or the server's error as an ApiError. */
  private async signInStep<T = SignInAnswer>(path: string, body: unknown): Promise<T> {
    const req = this.jsonRequest('POST', path, body);
    req.headers.set('x-client-kind', this.opts.clientKind ?? 'sdk');
    const res = await this.transport(req);
    if (!res.ok) throw await ApiError.from(res);
    return ((await res.json()) as { data: T }).data;
  }

  /** Takes the signed-in answer's tokens and notice, loads the user, then passes the notice on. */
  private async enter(data: SignInAnswer): Promise<Me> {
    this.notice = data.securityNotice ?? null;
    this.codesLeft = data.recoveryCodesLeft ?? null;
    await this.adopt(data as TokenPair, true);
    const me = await this.me();
    if (this.notice) this.opts.onSecurityNotice?.(this.notice);
    return me;
  }

  /** The password was generated or set by an operator: only changing it (and me, sessions, logout) works meanwhile. */
  get mustChangePassword(): boolean {
    return this.current?.mustChangePassword ?? false;
  }

  /**
   * What the account must do before anything else, as the server decides it (every other admin route answers 403 with
   * this code until done): change the password an operator set, or turn on the two-step sign-in a role requires.
   */
  get pendingStep(): 'PASSWORD_CHANGE_REQUIRED' | 'TOTP_SETUP_REQUIRED' | null {
    if (this.mustChangePassword) return 'PASSWORD_CHANGE_REQUIRED';
    // A session opened with a passkey satisfies the requirement (the server's guard.ts pendingOf says the same).
    return this.current?.totpRequired && !this.current.totpEnabled && !this.current.passkeyVerified
      ? 'TOTP_SETUP_REQUIRED'
      : null;
  }

  /** Revokes the refresh token on the server and forgets the session here and in every tab sharing it. */
  async logout(): Promise<void> {
    // Stop listening first: the server ends this session on logout and says so on the event stream, which must not
    // reach the app as "会话已结束（已在别处退出…）" before the sign-out it asked for.
    this.events?.abort();
    this.events = null;
    try {
      const token = await this.accessToken();
      const req = this.jsonRequest('POST', '/api/auth/logout', { refreshToken: this.refreshToken ?? undefined });
      req.headers.set('authorization', `Bearer ${token}`);
      await this.transport(req);
    } catch {
      // Signed out here whatever the server said: an unreachable server must not keep a user signed in.
    }
    await this.end('logout', true);
  }

  /** Reloads the user, roles and menu tree (call after a 403, or to pick up changed grants). */
  async me(): Promise<Me> {
    const { data, error, response } = await this.api.GET('/api/auth/me');
    if (!data) throw ApiError.fromBody(response, error);
    this.current = data.data;
    this.menuIndex = indexMenus(this.current.menus);
    this.emit();
    return this.current;
  }

  /** Changes one's own password. Every other device is signed out; this session continues with the fresh pair. */
  async changePassword(oldPassword: string, newPassword: string): Promise<void> {
    const change = (async () => {
      const { data, error, response } = await this.api.PUT(PASSWORD_PATH, {
        body: { oldPassword, newPassword },
      });
      if (!data) throw ApiError.fromBody(response, error);
      await this.withRefreshLock(() => this.adopt(data.data, true));
    })();
    this.changingPassword = change;
    try {
      await change;
    } finally {
      if (this.changingPassword === change) this.changingPassword = null;
    }
    // mustChangePassword is now false: reload so the app leaves its change-password screen.
    await this.me();
  }

  /**
   * Proves the holder of this session with the current password, or (TOTP on) a 6-digit or recovery code: for the
   * next 10 minutes the account-security changes that asked for it (ReauthRequiredError) work from this session.
   * Returns until when (ISO). A wrong proof is an ApiError 400 (「参数 password 无效：密码不正确」), counted by the
   * server's sign-in throttle.
   */
  async reauthenticate(proof: IdentityProof): Promise<string> {
    return (await answer(this.api.POST('/api/auth/reauth', { body: proof }))).until;
  }

  /**
   * The passkey alternative to `reauthenticate`'s password: options for the browser's navigator.credentials.get()
   * (only this account's passkeys) and a ceremony to send back with `reauthenticateWithPasskey`. An account without
   * passkeys is an ApiError 409.
   */
  async passkeyReauthOptions(): Promise<{ options: Record<string, unknown>; ceremony: string }> {
    return (await answer(this.api.POST('/api/auth/passkeys/reauth/options'))) as unknown as {
      options: Record<string, unknown>;
      ceremony: string;
    };
  }

  /**
   * Proves the holder with the authenticator's answer to `passkeyReauthOptions()`, as `reauthenticate` does with the
   * password; returns until when (ISO). An answer that does not verify is an ApiError 400.
   */
  async reauthenticateWithPasskey(ceremony: string, credential: unknown): Promise<string> {
    return (
      await answer(
        this.api.POST('/api/auth/passkeys/reauth', {
          body: { ceremony, credential } as never,
        }),
      )
    ).until;
  }

  /**
   * Runs `call`; when the server answers REAUTH_REQUIRED, proves the holder with `proof` (a value, or a function called
   * only then with the refusal, e.g. a password prompt showing its message) and runs `call` once more. Without a proof
   * the ReauthRequiredError surfaces.
   */
  async withReauth<T>(
    call: () => Promise<T>,
    proof?: IdentityProof | ((refused: ReauthRequiredError) => Promise<IdentityProof>),
  ): Promise<T> {
    try {
      return await call();
    } catch (e) {
      if (!(e instanceof ReauthRequiredError) || proof === undefined) throw e;
      await this.reauthenticate(typeof proof === 'function' ? await proof(e) : proof);
      return call();
    }
  }

  /**
   * Starts TOTP enrolment: a new secret, pending until `enableTotp`. Needs a proof of identity from the last 10
   * minutes (the sign-in counts): give `proof`, or catch ReauthRequiredError and ask for one.
   */
  async setupTotp(proof?: IdentityProof): Promise<TotpSetup> {
    return this.withReauth(() => answer(this.api.POST('/api/auth/totp/setup')), proof);
  }

  /**
   * Turns TOTP on with a current code from the authenticator; answers the ten recovery codes (show them once, have
   * them saved). `signOutOthers` ends every other session of the account. Needs a recent proof, as `setupTotp` does.
   */
  async enableTotp(code: string, opts: { signOutOthers?: boolean; proof?: IdentityProof } = {}): Promise<TotpEnabled> {
    const body = { code, ...(opts.signOutOthers ? { signOutOthers: true } : {}) };
    return this.withReauth(() => answer(this.api.POST('/api/auth/totp/enable', { body })), opts.proof);
  }

  /** Turns TOTP off, proven by the current password or a code (a recovery code is used up). */
  async disableTotp(proof: IdentityProof): Promise<void> {
    await answer(this.api.POST('/api/auth/totp/disable', { body: proof }));
    await this.me();
  }

  /** Ten new recovery codes, proven as `disableTotp` is; every earlier one stops working. */
  async regenerateRecoveryCodes(proof: IdentityProof): Promise<string[]> {
    return (await answer(this.api.POST('/api/auth/totp/recovery-codes', { body: proof }))).recoveryCodes;
  }

  /** True when the user's mask on `menuCode` holds every given point (no points: the menu is visible). */
  can(menuCode: string, ...bits: Array<PermissionName | number>): boolean {
    const node = this.menuIndex.get(menuCode);
    return node !== undefined && hasBits(node.permissions, bitsOf(bits));
  }

  /** True when the route's own declaration (its `x-permission`) passes for this user, e.g. `canCall('DELETE /api/users/{id}')`. */
  canCall(route: RouteKey): boolean {
    const decl = ROUTE_PERMISSIONS[route] as
      | 'public'
      | 'authenticated'
      | { menu?: string; bits: readonly PermissionName[] };
    if (decl === 'public') return true;
    if (!this.current) return false;
    if (decl === 'authenticated') return true;
    if (decl.menu !== undefined) return this.can(decl.menu, ...decl.bits);
    return hasBits(this.current.permissions, bitsOf(decl.bits));
  }

  /** The menu tree the user may see (menus granted with bits 0 included). */
  visibleMenus(): MenuNode[] {
    return this.current?.menus ?? [];
  }

  /**
   * fetch with the session: adds the bearer token (refreshed first when about to expire) and, on a 401, refreshes
   * once and retries once. Throws SessionEndedError when the session cannot continue.
   */
  async fetch(input: Request | string, init?: RequestInit): Promise<Response> {
    const req =
      typeof input === 'string' ? new Request(/^https?:/.test(input) ? input : this.baseUrl + input, init) : input;
    const retry = req.clone();
    const token = await this.accessToken();
    let res = await this.send(req, token);
    if (res.status === 401) {
      // Rejected while this client's own password change is under way: the server ended the old pair when it saved
      // the password, and the new pair is on its way in the change's answer. A refresh now would present the ended
      // refresh token and sign this client out. (Not for the change request itself, which would wait for itself.)
      if (this.changingPassword && !isPasswordChange(req)) await this.changingPassword.catch(() => undefined);
      const fresh = await this.refreshAfter(token);
      res = await this.send(retry, fresh);
      // Rejected right after a successful refresh: the account itself was revoked (disabled, deleted, new password).
      if (res.status === 401) {
        const detail = await detailOf(res);
        await this.end('refresh-failed', true, false, detail);
        throw new SessionEndedError('refresh-failed', detail);
      }
    }
    if (res.status === 403 && !req.url.endsWith('/api/auth/me')) {
      const refused = await ApiError.from(res);
      // Not a change of grants: the person is asked to prove who they are (the caller's ReauthRequiredError).
      if (!(refused instanceof ReauthRequiredError)) {
        this.opts.onForbidden?.(refused);
        void this.me().catch(() => undefined);
      }
    }
    return res;
  }

  /** A valid access token, refreshed first when it expires within the leeway. */
  async accessToken(): Promise<string> {
    if (this.access && !this.expiringSoon()) return this.access.token;
    if (!this.access && !this.refreshToken) {
      this.refreshToken = await this.storage.load();
      if (!this.refreshToken) throw new SessionEndedError('no-session');
    }
    return this.refreshAfter(this.access?.token ?? null);
  }

  /** The server session (sign-in) an access token belongs to. */
  private sessionIdOf(token: string | undefined): string | undefined {
    return token ? decodeClaims(token)?.sid : undefined;
  }

  /** Stops listening to other tabs and to the server's events (the session itself stays in storage). */
  close(): void {
    this.events?.abort();
    this.events = null;
    this.coord.close();
  }

  private send(req: Request, token: string): Promise<Response> {
    req.headers.set('authorization', `Bearer ${token}`);
    return this.transport(req);
  }

  private expiringSoon(): boolean {
    const a = this.access;
    if (!a) return true;
    const leeway = Math.min(this.opts.refreshLeewayMs ?? 30_000, a.lifetime / 5);
    return this.now() >= a.expiresAt - leeway;
  }

  /** Single flight: every caller that finds `stale` expired or rejected shares one refresh. */
  private refreshAfter(stale: string | null): Promise<string> {
    if (this.access && this.access.token !== stale && !this.expiringSoon()) return Promise.resolve(this.access.token);
    this.refreshing ??= this.withRefreshLock(() => this.refreshLocked(stale)).finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private withRefreshLock<T>(fn: () => Promise<T>): Promise<T> {
    return this.coord.withLock(fn);
  }

  private async refreshLocked(stale: string | null): Promise<string> {
    const known = this.refreshToken;
    // Another tab may have refreshed while this one waited for the lock and handed its token over.
    if (this.access && this.access.token !== stale && !this.expiringSoon()) return this.access.token;
    const stored = await this.storage.load();
    if (!stored) {
      await this.end('no-session', false);
      throw new SessionEndedError('no-session');
    }
    if (this.coord.shared && known !== null && stored !== known) {
      // Rotated by another tab: its access token is on the way over the channel.
      const handed = await this.waitForHandover();
      if (handed) return handed;
    }
    const res = await this.transport(this.jsonRequest('POST', '/api/auth/refresh', { refreshToken: stored }));
    if (res.status === 400 || res.status === 401 || res.status === 403) {
      const detail = await detailOf(res);
      await this.end('refresh-failed', true, false, detail);
      throw new SessionEndedError('refresh-failed', detail);
    }
    // 429, 5xx: the server is busy or down; the session is still good, so keep it.
    if (!res.ok) throw await ApiError.from(res);
    const { data } = (await res.json()) as { data: TokenPair };
    await this.adopt(data, true);
    return data.accessToken;
  }

  private waitForHandover(): Promise<string | null> {
    return new Promise((resolve) => {
      const done = (t: string | null) => {
        clearTimeout(timer);
        this.handoverWaiters.delete(done);
        resolve(t);
      };
      const timer = setTimeout(() => done(null), this.opts.handoverWaitMs ?? 3000);
      this.handoverWaiters.add(done);
    });
  }

  private async adopt(pair: TokenPair, broadcast: boolean): Promise<void> {
    const lifetime = lifetimeMs(pair.accessToken) ?? 60_000;
    this.access = { token: pair.accessToken, expiresAt: this.now() + lifetime, lifetime };
    this.refreshToken = pair.refreshToken;
    await this.storage.save(pair.refreshToken);
    if (broadcast)
      this.coord.post({
        type: 'tokens',
        accessToken: pair.accessToken,
        expiresAt: this.access.expiresAt,
        refreshToken: pair.refreshToken,
      });
    this.emit();
  }

  /**
   * Forgets the session. `fromPeer`: another tab ended it and already cleared the shared storage — clearing it
   * again could wipe a token that tab has stored since (a new sign-in).
   */
  private async end(
    reason: SignOutReason,
    broadcast: boolean,
    fromPeer = false,
    detail?: SignOutDetail,
  ): Promise<void> {
    const had = this.signedIn || this.current !== null;
    this.events?.abort();
    this.events = null;
    this.access = null;
    this.refreshToken = null;
    this.current = null;
    this.notice = null;
    this.codesLeft = null;
    this.menuIndex = new Map();
    if (!fromPeer) await this.storage.save(null);
    if (broadcast) this.coord.post({ type: 'signed-out' });
    for (const w of this.handoverWaiters) w(null);
    this.emit();
    if (had) {
      if (detail) this.opts.onSignedOut?.(reason, detail);
      else this.opts.onSignedOut?.(reason);
    }
  }

  /**
   * Listens to the server's event stream (/api/auth/events) while signed in: when the server ends this session
   * (signed out elsewhere, by an operator, forced sign-out, ...), the session ends here at once with the server's
   * reason, instead of at the next request. Reconnects after a dropped connection; stops at sign-out or close().
   */
  watchEvents(retryMs = 5000): void {
    if (this.events) return;
    const controller = new AbortController();
    this.events = controller;
    void (async () => {
      while (!controller.signal.aborted && this.signedIn) {
        try {
          // Refreshes keep the session id; only a new sign-in or a password change starts another session.
          const streamed = this.sessionIdOf(await this.accessToken());
          const res = await this.fetch(new Request(`${this.baseUrl}/api/auth/events`, { signal: controller.signal }));
          if (res.ok && res.body) {
            const ended = await readSessionEnded(res.body);
            await this.changingPassword?.catch(() => undefined);
            if (controller.signal.aborted) break; // signed out on purpose meanwhile (logout)
            // A notice about a session this client has since left (e.g. its own password change started a new one)
            // is not about the current session: listen again with the current one.
            if (ended && streamed === this.sessionIdOf(this.access?.token)) {
              await this.end('session-ended', true, false, ended);
              return;
            }
            if (ended) continue;
          }
        } catch {
          // Signed out meanwhile, aborted, or the server is unreachable: the loop condition decides.
        }
        if (!controller.signal.aborted) await new Promise((r) => setTimeout(r, retryMs));
      }
      if (this.events === controller) this.events = null;
    })();
  }

  private onPeerMessage(m: CoordinatorMessage): void {
    if (m.type === 'signed-out') {
      void this.end('other-tab', false, true);
      return;
    }
    const lifetime = lifetimeMs(m.accessToken) ?? 60_000;
    this.access = { token: m.accessToken, expiresAt: m.expiresAt, lifetime };
    this.refreshToken = m.refreshToken;
    for (const w of this.handoverWaiters) w(m.accessToken);
    this.emit();
    // Signed in (or as someone else) in another tab: load who we are now.
    if (!this.current || decodeClaims(m.accessToken)?.sub !== this.current.id) void this.me().catch(() => undefined);
  }

  private jsonRequest(method: string, path: string, body: unknown): Request {
    return new Request(this.baseUrl + path, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  private emit(): void {
    for (const l of this.listeners) l();
  }
}

/** The envelope's `data` of an openapi-fetch answer (undefined for 204), or the server's error as an ApiError. */
async function answer<T>(call: Promise<{ data?: { data: T }; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw ApiError.fromBody(response, error);
  return data?.data as T;
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/** The server's `{code, message}` of a refused answer, if it has one. */
async function detailOf(res: Response): Promise<SignOutDetail | undefined> {
  const e = await ApiError.from(res);
  return e.code.startsWith('HTTP_') ? undefined : { code: e.code, message: e.message };
}

/** Reads a Server-Sent Events stream until its `session-ended` event (its data) or the end of the stream (null). */
async function readSessionEnded(body: ReadableStream<Uint8Array>): Promise<SignOutDetail | null> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return null;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const lines = buffer.slice(0, cut).split('\n');
      buffer = buffer.slice(cut + 2);
      const field = (name: string) =>
        lines.filter((l) => l.startsWith(`${name}:`)).map((l) => l.slice(name.length + 1).replace(/^ /, ''));
      if (field('event')[0] !== 'session-ended') continue;
      const data = JSON.parse(field('data').join('\n')) as { reason: string; message: string };
      await reader.cancel().catch(() => undefined);
      return { code: data.reason, message: data.message };
    }
  }
}

function indexMenus(nodes: MenuNode[], into = new Map<string, MenuNode>()): Map<string, MenuNode> {
  for (const n of nodes) {
    into.set(n.code, n);
    indexMenus(n.children ?? [], into);
  }
  return into;
}

export function createSession(opts: SessionOptions): TianjiSession {
  return new TianjiSession(opts);
}

/** Where one's own password is changed (PUT; TianjiSession.changePassword). */
const PASSWORD_PATH = '/api/auth/password';

/** The request that changes one's own password. */
function isPasswordChange(req: Request): boolean {
  return req.method === 'PUT' && new URL(req.url).pathname === PASSWORD_PATH;
}
