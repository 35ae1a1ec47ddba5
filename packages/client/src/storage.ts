import type { Coordinator } from './coordinator.js';

/**
 * Where the refresh token lives. The access token stays in memory (fileStorage alone keeps the latest one beside the
 * refresh token, for processes sharing the file); the refresh token goes to an adapter the
 * host app picks. Whether it persists is the client's matter: the server contract is the same either way.
 */
export interface TokenStorage {
  load(): string | null | Promise<string | null>;
  save(refreshToken: string | null): void | Promise<void>;
  /**
   * Set when several sessions in different contexts share this storage (browser tabs on one localStorage): the
   * client then coordinates refreshes across them under this name (Web Locks + BroadcastChannel).
   */
  readonly sharedKey?: string;
  /**
   * Set when the storage brings its own refresh coordination (the file storage: a lock file, so separate processes
   * sharing the file refresh once between them). Takes precedence over sharedKey.
   */
  readonly coordinator?: Coordinator;
}

/** Kept in this object only: gone when the process or page goes away. */
export function memoryStorage(initial: string | null = null): TokenStorage {
  let token = initial;
  return {
    load: () => token,
    save: (t) => {
      token = t;
    },
  };
}

/** Minimal Web Storage shape, so tests and non-window hosts can pass their own. */
export interface WebStorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/**
 * The browser's localStorage: survives reloads and is shared by every tab of the origin, so the client
 * coordinates refreshes across tabs (see TokenStorage.sharedKey).
 */
export function localStorageAdapter(key = 'tianji.refreshToken', storage?: WebStorageLike): TokenStorage {
  const store = () => storage ?? (globalThis as { localStorage?: WebStorageLike }).localStorage;
  return {
    sharedKey: key,
    load: () => store()?.getItem(key) ?? null,
    save: (t) => {
      const s = store();
      if (!s) return;
      if (t === null) s.removeItem(key);
      else s.setItem(key, t);
    },
  };
}
