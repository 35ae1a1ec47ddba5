/**
 * Single flight across contexts. The server voids a refresh token the moment it is used, so two tabs refreshing
 * with the same token would sign one of them out. Tabs that share a refresh token take a Web Lock before
 * refreshing, and the winner hands the new access token to the others over a BroadcastChannel.
 * Where Web Locks are missing (Node 20, old browsers) an in-process lock keeps single flight inside this context.
 */
export type CoordinatorMessage =
  | { type: 'tokens'; accessToken: string; expiresAt: number; refreshToken: string }
  | { type: 'signed-out' };

export interface Coordinator {
  /** Runs fn while holding the refresh lock (exclusive across every context sharing the key). */
  withLock<T>(fn: () => Promise<T>): Promise<T>;
  post(msg: CoordinatorMessage): void;
  onMessage(listener: (msg: CoordinatorMessage) => void): void;
  /** True when other contexts can hand over tokens (a BroadcastChannel is open). */
  readonly shared: boolean;
  close(): void;
}

/** A promise-chain mutex for one JavaScript context. */
function localMutex() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  };
}

/** The part of the Web Locks API used here (`navigator.locks`). */
export interface LockManagerLike {
  request<T>(name: string, cb: () => Promise<T>): Promise<T>;
}

/** What the cross-context coordinator needs from its host; defaults to the browser's globals. */
export interface ContextApis {
  locks?: LockManagerLike;
  BroadcastChannel?: typeof BroadcastChannel;
}

/** Coordination inside this context only (Node clients, unshared storage). */
export function localCoordinator(): Coordinator {
  const mutex = localMutex();
  return { withLock: mutex, post: () => undefined, onMessage: () => undefined, shared: false, close: () => undefined };
}

/** Coordination across every browser context of the origin that uses the same key. */
export function crossContextCoordinator(key: string, apis?: ContextApis): Coordinator {
  const g = globalThis as { navigator?: { locks?: LockManagerLike }; BroadcastChannel?: typeof BroadcastChannel };
  const locks = apis ? apis.locks : g.navigator?.locks;
  const Channel = apis ? apis.BroadcastChannel : g.BroadcastChannel;
  const mutex = localMutex();
  const channel = typeof Channel === 'function' ? new Channel(`tianji-session:${key}`) : undefined;
  const listeners: Array<(m: CoordinatorMessage) => void> = [];
  if (channel)
    channel.onmessage = (e: MessageEvent) => {
      for (const l of listeners) l(e.data as CoordinatorMessage);
    };
  return {
    // The in-process mutex first, so one tab queues at most one Web Lock request at a time.
    withLock: (fn) => mutex(() => (locks ? locks.request(`tianji-refresh:${key}`, fn) : fn())),
    post: (m) => channel?.postMessage(m),
    onMessage: (l) => void listeners.push(l),
    shared: !!channel,
    close: () => channel?.close(),
  };
}
