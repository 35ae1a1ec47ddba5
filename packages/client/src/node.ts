/**
 * Node entry: everything from the main entry plus a refresh-token storage in a file. Kept apart so browser
 * bundles never see `node:fs`.
 */
import fs from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import type { Coordinator, CoordinatorMessage } from './coordinator.js';
import type { TokenStorage } from './storage.js';

export * from './index.js';

/** Writes through a temporary file renamed over the old one, so a crash never leaves half a token. */
async function writePrivate(file: string, text: string): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.promises.writeFile(tmp, text, { mode: 0o600 });
  await fs.promises.rename(tmp, file);
}

async function readOrNull(file: string): Promise<string | null> {
  try {
    return (await fs.promises.readFile(file, 'utf8')).trim() || null;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/**
 * The file beside the lock directory naming its holder, `<host> <pid>` (beside, not inside: proper-lockfile removes
 * its directory with rmdir, which a file inside would make fail).
 */
const holderOf = (lockDir: string) => `${lockDir}.holder`;

/**
 * Removes a lock whose holder was a process of this machine that no longer runs (a `tianji` killed mid-refresh),
 * instead of waiting out proper-lockfile's 10 s staleness. A lock held by a live process, by another machine (a shared
 * home folder) or of unknown holder is left alone.
 */
async function removeIfHolderDied(lockDir: string): Promise<void> {
  const holder = await readOrNull(holderOf(lockDir));
  const [host, pid] = holder?.split(' ') ?? [];
  if (host !== hostname() || !/^\d+$/.test(pid ?? '') || isRunning(Number(pid))) return;
  // Renamed first (atomic), so that of two processes finding the same dead lock only one removes it.
  const doomed = `${lockDir}.stale-${process.pid}`;
  try {
    await fs.promises.rename(lockDir, doomed);
  } catch {
    return;
  }
  await fs.promises.rm(doomed, { recursive: true, force: true });
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it runs, as another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Refreshes across processes that share one token file (two `tianji` commands started at once). The server voids a
 * refresh token on use and treats a second use as a replay that revokes the sign-in, so the refresh runs under a
 * lock file (proper-lockfile: mkdir-based, stale after 10 s if its holder died). The winner leaves its access token
 * in `<file>.access` (0600); a process that gets the lock afterwards picks that token up instead of refreshing again.
 */
function fileCoordinator(file: string): Coordinator {
  const accessFile = `${file}.access`;
  const listeners: Array<(m: CoordinatorMessage) => void> = [];
  let known: string | null = null;
  let tail: Promise<unknown> = Promise.resolve();

  async function adoptPeerToken(): Promise<void> {
    const [raw, refreshToken] = await Promise.all([readOrNull(accessFile), readOrNull(file)]);
    if (!raw || !refreshToken) return;
    let held: { accessToken?: unknown; expiresAt?: unknown };
    try {
      held = JSON.parse(raw) as typeof held;
    } catch {
      return;
    }
    const { accessToken, expiresAt } = held;
    if (
      typeof accessToken !== 'string' ||
      typeof expiresAt !== 'number' ||
      accessToken === known ||
      expiresAt <= Date.now()
    )
      return;
    known = accessToken;
    for (const l of listeners) l({ type: 'tokens', accessToken, expiresAt, refreshToken });
  }

  async function locked<T>(fn: () => Promise<T>): Promise<T> {
    await fs.promises.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const lockDir = `${file}.lock`;
    await removeIfHolderDied(lockDir);
    let release: () => Promise<void>;
    try {
      release = await lockfile.lock(file, {
        realpath: false,
        lockfilePath: lockDir,
        stale: 10_000,
        retries: { retries: 300, factor: 1, minTimeout: 25, maxTimeout: 25 },
      });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ELOCKED') throw e;
      throw new Error(
        `另一个 tianji 进程正在刷新登录状态，等待 7 秒后仍未结束；请稍后重试。若确认没有其他 tianji 进程在运行，可删除锁目录 ${lockDir} (another tianji process holds the refresh lock)`,
      );
    }
    // Who holds it, so that a process finding it after a crash can tell at once (removeIfHolderDied).
    await writePrivate(holderOf(lockDir), `${hostname()} ${process.pid}`).catch(() => undefined);
    try {
      await adoptPeerToken();
      return await fn();
    } finally {
      await fs.promises.rm(holderOf(lockDir), { force: true });
      await release().catch(() => undefined);
    }
  }

  return {
    withLock: <T>(fn: () => Promise<T>): Promise<T> => {
      const run = tail.then(() => locked(fn));
      tail = run.catch(() => undefined);
      return run;
    },
    post: (m) => {
      // Called inside the lock (adopt after a refresh or login), so the next process to take it sees this token.
      if (m.type === 'tokens') {
        known = m.accessToken;
        // Synchronous, so it is on disk before the lock is released (post has no promise to await).
        const tmp = `${accessFile}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, JSON.stringify({ accessToken: m.accessToken, expiresAt: m.expiresAt }), { mode: 0o600 });
        fs.renameSync(tmp, accessFile);
      } else {
        known = null;
        fs.rmSync(accessFile, { force: true });
      }
    },
    onMessage: (l) => void listeners.push(l),
    // No hand-over to wait for: the token is read from disk under the lock before the refresh decides.
    shared: false,
    close: () => undefined,
  };
}

/**
 * Keeps the refresh token in a file (mode 0600, its folder 0700), so a CLI or service stays signed in across
 * restarts. Several processes may share the file: refreshes run under a lock file and the latest access token is
 * kept beside it (`<file>.access`, 0600), so processes started together refresh once between them.
 */
export function fileStorage(file: string): TokenStorage {
  return {
    coordinator: fileCoordinator(file),
    load: () => readOrNull(file),
    async save(token) {
      if (token === null) {
        await fs.promises.rm(file, { force: true });
        await fs.promises.rm(`${file}.access`, { force: true });
        return;
      }
      await writePrivate(file, token);
    },
  };
}
