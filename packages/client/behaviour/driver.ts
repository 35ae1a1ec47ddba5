/**
 * The one surface every client is driven through by the behaviour scenarios (scenarios.ts). A driver maps each step
 * to its client's own surface: the SDK's API, the `tianji` command and its exit codes, or the web app in Chromium.
 */
import type { MenuNode } from '../src/index.js';

/** The clients the scenarios prove, in the order of the README matrix. */
export const CLIENT_KINDS = ['sdk', 'cli', 'web', 'mobile'] as const;
export type ClientKind = (typeof CLIENT_KINDS)[number];

export const CLIENT_LABELS: Record<ClientKind, string> = {
  sdk: 'SDK `@tianji/client`',
  cli: 'CLI `tianji`',
  web: 'Desktop web `/admin`',
  mobile: 'Mobile web `/m/`',
};

/** What the client shows for the signed-in user. */
export interface Identity {
  /** The name shown: username or nickname. */
  shownName: string;
  /** Role names (or codes) shown. */
  roles: string[];
  /** The aggregate mask as exact digits, as the client received or shows it. */
  mask: string;
}

/** How one action ended, as the client tells its user. */
export type Outcome =
  | { kind: 'ok' }
  | { kind: 'forbidden'; message: string }
  | { kind: 'signed-out'; code?: string; message: string };

/** The server's reason for an ended session, as the client shows it (the code where the client shows codes). */
export interface ShownReason {
  code?: string;
  message: string;
}

/** The actions scenarios take; each driver maps them to its client's surface. */
export type ActionRoute = 'PATCH /api/users/{id}';

export interface ClientDriver {
  readonly kind: ClientKind;
  /**
   * Signs in; `totp` gives the code when the client asks for one. Rejects when the sign-in fails (the client then
   * still shows no signed-in user).
   */
  signIn(username: string, password: string, totp?: () => string): Promise<void>;
  /**
   * The security notice the client showed after its last sign-in (the server's sentence on wrong second-step codes
   * since the sign-in before), read as the user sees it and then dismissed as they would; null when it showed none.
   */
  securityNotice(): Promise<string | null>;
  /** True while the client shows that the user must first change the password (and offers that only). */
  mustChangePassword(): Promise<boolean>;
  /** Changes the signed-in user's own password, the way the client offers it. */
  changeOwnPassword(oldPassword: string, newPassword: string): Promise<void>;
  identity(): Promise<Identity>;
  /**
   * The permission points (SEARCH, EDIT, ...) the client offers on a menu, from what it has loaded; null when the
   * menu is not visible.
   */
  visibleActions(menu: string): Promise<string[] | null>;
  /** Reloads identity and menus the way the client does (navigation, `me()`, a new command). */
  refreshMenus(): Promise<void>;
  /** Takes an action on another user (`targetUsername`). */
  doAction(route: ActionRoute, targetUsername: string): Promise<Outcome>;
  /** Opens what `concurrentActions(n)` runs in (browser tabs); before the access token expires. */
  prepareConcurrent(n: number): Promise<void>;
  /** Reads data in `n` places at once (parallel calls, processes, tabs). */
  concurrentActions(n: number): Promise<Outcome[]>;
  /** The refresh token the client keeps (to play the thief who uses it first). */
  storedRefreshToken(): Promise<string>;
  logout(): Promise<void>;
  /**
   * Turns on TOTP from the signed-in session the way the client offers it (setup, then a code from `authenticator`
   * given the secret), giving `password` if and when the client asks the user to confirm who they are. Says whether
   * it asked and which recovery codes it showed.
   */
  enrolTotp(
    password: string,
    authenticator: (secret: string) => string,
  ): Promise<{ askedForPassword: boolean; recoveryCodes: string[] }>;
  /**
   * Adds a passkey from the signed-in session the way the client offers it (a browser's authenticator, or the SDK's
   * calls with an authenticator of the driver's), giving `password` if the client asks who the user is.
   */
  addPasskey(password: string): Promise<void>;
  /** Signs in with that passkey alone: no username, no password, no code. */
  signInWithPasskey(): Promise<void>;
  /**
   * Signs in without a password typed into this client: it asks for a device code and waits while `decide` (the
   * person, in a signed-in browser) approves or refuses it. Rejects with the server's Chinese message when refused.
   * Only clients without a browser of their own do this (the scenario marks the others as not applying).
   */
  signInApprovedElsewhere(decide: (userCode: string) => Promise<void>): Promise<void>;
  /** True while the client shows a signed-in user. */
  signedIn(): Promise<boolean>;
  /**
   * After the server ended the session: the reason the client shows, making the request the client needs to learn
   * of it when it has no event stream.
   */
  shownReason(): Promise<ShownReason | null>;
  close(): Promise<void>;
}

/** A menu of a client's loaded tree by code, at any depth; null when the user does not see it. */
export function findMenu(nodes: MenuNode[], code: string): MenuNode | null {
  for (const n of nodes) {
    if (n.code === code) return n;
    const inner = findMenu(n.children ?? [], code);
    if (inner) return inner;
  }
  return null;
}
