/**
 * Runs the password-strength check in worker threads so that zxcvbn never blocks the server's event loop, and so
 * that one slow password cannot stall the others:
 *
 * - two lanes (two piscina pools): passwords of up to SHORT_LANE_MAX UTF-16 units (almost every real password)
 *   run on `workers` threads; longer ones, which is where zxcvbn's crafted worst cases live (several ms for 64
 *   repeated l33t characters, seconds without password-matchers.ts), run on one thread of their own with a short
 *   queue, at the lowest scheduling priority. A flood of long crafted inputs therefore only slows down other long
 *   inputs, and takes only the CPU the ordinary checks leave;
 * - a time budget per check: a check not finished within `budgetMs` is abandoned (a running worker is terminated
 *   and replaced) and answered with an error that says so;
 * - weak results (score ≤ 1, i.e. found within a million guesses) are kept in a small LRU keyed by the SHA-256 of
 *   the password: the same common passwords are asked about again and again, and remembering one that every
 *   cracking dictionary already holds keeps nothing secret (the result itself spells it out). Stronger passwords
 *   are never kept after the request, not even as a key;
 * - no wait for threads: one thread of the ordinary lane is loaded when the server starts listening (prepare) and
 *   stays loaded, so the first burst after a quiet spell is scored on a warm thread (issue 31). The lane's other
 *   threads start when checks queue up behind it and stop after ten idle minutes. Until the first thread has
 *   loaded (0.4–1 s after start-up, seconds on a busy machine) checks are scored on the event loop, over the same
 *   dictionaries, rather than wait.
 *
 * Pure module: no HTTP framework here (errors are LookupErrors, which the platform renders as 500 envelopes).
 */
import { createHash } from 'node:crypto';
import { Piscina } from 'piscina';
import { LookupError } from '../../errors.js';
import { workerEntry } from '../workers/worker-entry.js';
import { PASSWORD_BUDGET_MS } from './password-constants.js';
import type { PasswordStrength } from './password-strength.js';
import type { PasswordWorkerData } from './password-worker.js';
import type { SharedWordIndex } from './password-word-index.js';

/** Longest password (in UTF-16 units, zxcvbn's unit of work) that runs in the ordinary lane. */
export const SHORT_LANE_MAX = 16;

const WEAK_CACHE_LIMIT = 5000;
/** A worker that fails to load within this time is reported as broken (only the first check of a lane waits). */
const WARM_UP_LIMIT_MS = 60_000;

export interface PasswordPoolOptions {
  /** Threads of the ordinary lane (PASSWORD_WORKERS); the long lane always has one. */
  workers: number;
  budgetMs?: number;
  /** Where to report a worker that crashed outside a task. */
  onError?: (err: unknown) => void;
}

interface LaneOptions {
  threads: number;
  maxQueue: number;
  /** A lane with no check for this long stops its threads; the next check starts them again. Absent: never stops. */
  idleMs?: number;
  /** Scheduling niceness of the lane's threads (0 = the process's own, 19 = only what others leave). */
  niceness: number;
}

/** The dictionaries compiled for every thread of the process that scores passwords, once (sharedPasswordWords). */
let words: Promise<SharedWordIndex> | undefined;

/**
 * zxcvbn's word lists compiled into the shared trie, once per process, in a thread of its own that then ends
 * (password-words-worker.ts): loading and compiling the lists takes ~90 MB for a moment and leaves ~40 MB of heap,
 * which neither the event loop nor any scoring thread then keeps. Each lane's threads, and the admin password
 * policy on the event loop, score over the same trie (shared memory, ~5 MB for the process).
 */
export function sharedPasswordWords(): Promise<SharedWordIndex> {
  words ??= (async () => {
    const thread = new Piscina({
      ...workerEntry(import.meta.url, 'password-words-worker'),
      minThreads: 1,
      maxThreads: 1,
    });
    try {
      return (await thread.run(null, { signal: AbortSignal.timeout(WARM_UP_LIMIT_MS) })) as SharedWordIndex;
    } finally {
      await thread.destroy();
    }
  })().catch((err: unknown) => {
    // A failed compile is tried again by the next lane that starts.
    words = undefined;
    throw err;
  });
  return words;
}

/**
 * One piscina pool whose threads all start together, when first needed, and all load the dictionaries before the lane
 * takes a check: a thread piscina adds under load would be handed checks while it still loads (seconds on a busy
 * machine), and they would run out of budget. A thread replaced after a budget abort is only used once loaded.
 */
class Lane {
  private ready?: Promise<Piscina>;
  private idle?: NodeJS.Timeout;
  /** Whether the threads have loaded and take checks now (a check would not wait for them to start). */
  warm = false;
  /** Checks handed to the lane and not yet answered (running or queued). */
  busy = 0;

  get threads(): number {
    return this.opts.threads;
  }

  constructor(
    private readonly opts: LaneOptions,
    private readonly onError?: (err: unknown) => void,
  ) {}

  /** The started pool (starting it if needed); rejects when the threads cannot load. */
  pool(): Promise<Piscina> {
    this.ready ??= this.start();
    if (this.opts.idleMs === undefined) return this.ready;
    if (this.idle) this.idle.refresh();
    else {
      this.idle = setTimeout(() => void this.stop(), this.opts.idleMs);
      this.idle.unref();
    }
    return this.ready;
  }

  async stop(): Promise<void> {
    clearTimeout(this.idle);
    this.idle = undefined;
    this.warm = false;
    const ready = this.ready;
    this.ready = undefined;
    const pool = await ready?.catch(() => undefined);
    await pool?.destroy();
  }

  /**
   * After a check was abandoned (its thread terminated and replaced): later checks wait until the lane has loaded
   * again, so the replacement's loading is not billed to their budget.
   */
  reload(): void {
    const ready = this.ready;
    if (!ready) return;
    this.ready = ready.then((pool) => this.load(pool).then(() => pool));
    // A failed reload starts the lane afresh on the next check.
    this.ready.catch(() => (this.ready = undefined));
  }

  private load(pool: Piscina): Promise<unknown> {
    // One warm-up task per thread: each thread takes one, so every thread has loaded when all are done.
    return Promise.all(
      Array.from({ length: this.opts.threads }, () => pool.run('', { signal: AbortSignal.timeout(WARM_UP_LIMIT_MS) })),
    );
  }

  private async start(): Promise<Piscina> {
    const { threads, maxQueue, niceness } = this.opts;
    const compiled = await sharedPasswordWords().catch((err: unknown) => {
      this.ready = undefined;
      throw err;
    });
    const pool = new Piscina({
      ...workerEntry(import.meta.url, 'password-worker'),
      minThreads: threads,
      maxThreads: threads,
      maxQueue,
      workerData: { niceness, words: compiled } satisfies PasswordWorkerData,
      resourceLimits: {
        // A runaway check must not take the process's memory with it (a thread's heap is ~10 MB once loaded).
        maxOldGenerationSizeMb: 256,
        // V8's default young generation (48 MB, two 16 MB semi-spaces once grown) was most of a thread's resident
        // size; a check's garbage is short-lived, so half of it costs no measurable CPU and saves ~25 MB a thread.
        maxYoungGenerationSizeMb: 24,
      },
    });
    pool.on('error', (err) => this.onError?.(err));
    return this.load(pool).then(
      () => {
        this.warm = true;
        return pool;
      },
      async (err) => {
        this.ready = undefined;
        await pool.destroy().catch(() => undefined);
        throw err;
      },
    );
  }
}

export interface PasswordPoolStats {
  threads: number;
  running: number;
  busy: number;
  queued: number;
}

/** Every open pool of the process (stopPasswordThreads). */
const openPools = new Set<PasswordPool>();

/**
 * Stops every pool's threads as their idle timers would after a quiet spell, keeping what `prepare` made. For the
 * bench, which measures the first burst after idle (`npm run bench -- --only password`) without waiting ten minutes.
 */
export async function stopPasswordThreads(): Promise<void> {
  await Promise.all([...openPools].map((p) => p.stopThreads()));
}

export class PasswordPool {
  /** The ordinary lane's resident thread: loaded by prepare (or the first check) and kept loaded. */
  private readonly short: Lane;
  /** The ordinary lane's other threads (PASSWORD_WORKERS − 1): started when checks queue up, stopped when idle. */
  private readonly rest?: Lane;
  private readonly long: Lane;
  /** The time budget of each check from now on (PASSWORD_BUDGET_MS by default). */
  budgetMs: number;
  /** SHA-256 (base64) of a weak password → its result, least recently used first. */
  private readonly weak = new Map<string, PasswordStrength>();
  private readonly onError?: (err: unknown) => void;
  /** zxcvbn configured on this thread, for ordinary checks until the resident thread has loaded. */
  private here?: Promise<(password: string) => PasswordStrength>;
  /** Lane starts whose failure is reported (once each, though every check meanwhile sees it). */
  private readonly watched = new WeakSet<Promise<Piscina>>();

  constructor(opts: PasswordPoolOptions) {
    this.budgetMs = opts.budgetMs ?? PASSWORD_BUDGET_MS;
    this.onError = opts.onError;
    // One thread is kept loaded, so that no burst waits for a thread to start (issue 31: p99 < 150 ms including the
    // first burst after an idle spell); the others cost memory only while there is load for them.
    // It alone takes the checks while the others start, so its queue holds what the whole lane's would.
    this.short = new Lane({ threads: 1, maxQueue: 64 * opts.workers, niceness: 0 }, opts.onError);
    if (opts.workers > 1) {
      this.rest = new Lane(
        { threads: opts.workers - 1, maxQueue: 64 * (opts.workers - 1), idleMs: 10 * 60_000, niceness: 0 },
        opts.onError,
      );
    }
    // The long lane runs at the lowest priority: a flood of crafted inputs there gets only the CPU that ordinary
    // checks and the event loop leave, instead of a core of a small machine (its checks still finish in
    // milliseconds each when the machine has room).
    this.long = new Lane({ threads: 1, maxQueue: 4, idleMs: 60_000, niceness: 19 }, opts.onError);
    openPools.add(this);
  }

  /**
   * Compiles the shared dictionaries (in a thread that then ends), readies zxcvbn on this thread (~13 MB kept: the
   * trie and zxcvbn's code) and loads the resident thread, which stays loaded (~30 MB). The server calls it once it
   * listens; a failure is reported and tried again on use.
   */
  async prepare(): Promise<void> {
    await Promise.all([this.scorerHere().catch((err: unknown) => this.onError?.(err)), this.start(this.short)]);
  }

  /** Whether the resident thread is loaded and takes ordinary checks (false until it has loaded). */
  get threadsReady(): boolean {
    return this.short.warm;
  }

  /** Threads of the ordinary lane that are loaded and take checks now (the resident one and, under load, the rest). */
  get warmThreads(): number {
    return (this.short.warm ? 1 : 0) + (this.rest?.warm ? this.rest.threads : 0);
  }

  /**
   * The pool as 服务监控 shows it: threads the lanes may run (`threads`), threads loaded now (`running`), checks being
   * scored (`busy`) and checks waiting for a thread (`queued`), over both lanes.
   */
  stats(): PasswordPoolStats {
    const lanes = [this.short, this.rest, this.long].filter((l): l is Lane => l !== undefined);
    const out = { threads: 0, running: 0, busy: 0, queued: 0 };
    for (const l of lanes) {
      out.threads += l.threads;
      if (l.warm) out.running += l.threads;
      out.busy += Math.min(l.busy, l.threads);
      out.queued += Math.max(0, l.busy - l.threads);
    }
    return out;
  }

  /**
   * Stops the threads that stop when idle, as their idle timers do: all but the resident one. The next checks that
   * queue up start them again.
   */
  async stopThreads(): Promise<void> {
    await Promise.all([this.rest?.stop(), this.long.stop()]);
  }

  /** Starts a lane if it is not started; a failure is reported once, and tried again by a later check. */
  private start(lane: Lane): Promise<void> {
    const starting = lane.pool();
    const report = !this.watched.has(starting);
    this.watched.add(starting);
    return starting.then(
      () => undefined,
      (err: unknown) => {
        if (report) this.onError?.(err);
      },
    );
  }

  /** Scores a password within the time budget; throws a LookupError when it cannot. */
  async check(password: string): Promise<PasswordStrength> {
    const key = createHash('sha256').update(password).digest('base64');
    const cached = this.weak.get(key);
    if (cached) {
      this.weak.delete(key);
      this.weak.set(key, cached);
      return cached;
    }
    const result = await this.score(password);
    if (result.score <= 1) {
      if (this.weak.size >= WEAK_CACHE_LIMIT) this.weak.delete(this.weak.keys().next().value as string);
      this.weak.set(key, result);
    }
    return result;
  }

  private async score(password: string): Promise<PasswordStrength> {
    if (password.length > SHORT_LANE_MAX) return this.run(this.long, password);
    const lane = this.ordinaryLane();
    if (lane) return this.run(lane, password);
    // The resident thread is still loading (the first checks after start-up): rather than have them wait for it
    // (0.4–1 s, seconds on a busy machine), ordinary passwords are scored here meanwhile. They are at most
    // SHORT_LANE_MAX characters, about half a millisecond each with the fast matchers, whatever their content.
    return (await this.scorerHere())(password);
  }

  /**
   * The loaded lane with fewer checks in hand per thread, or undefined while none has loaded. A check that would
   * queue behind the resident thread starts the other threads (they take checks once loaded).
   */
  private ordinaryLane(): Lane | undefined {
    const { short, rest } = this;
    if (!short.warm) void this.start(short);
    if (!rest) return short.warm ? short : undefined;
    if (rest.warm && (!short.warm || rest.busy < short.busy * rest.threads)) return rest;
    if (short.busy > 0 && !rest.warm) void this.start(rest);
    return short.warm ? short : undefined;
  }

  /** zxcvbn on this thread, over the shared dictionaries (as the admin password policy scores). */
  private scorerHere(): Promise<(password: string) => PasswordStrength> {
    this.here ??= (async () => {
      const [{ checkPassword, configureZxcvbn }, words] = await Promise.all([
        import('./password-strength.js'),
        sharedPasswordWords(),
      ]);
      configureZxcvbn(words);
      return checkPassword;
    })().catch((err: unknown) => {
      this.here = undefined;
      throw err;
    });
    return this.here;
  }

  /** Stops every worker; checks still waiting fail. */
  async close(): Promise<void> {
    openPools.delete(this);
    this.weak.clear();
    await Promise.all([this.short.stop(), this.stopThreads()]);
  }

  private async run(lane: Lane, password: string): Promise<PasswordStrength> {
    // Counted at once, so that checks arriving in the same tick see each other when a lane is picked.
    lane.busy++;
    const budget = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    try {
      // A lane that is (re)loading is waited for outside the budget: its loading is not the check's.
      const pool = await lane.pool();
      timer = setTimeout(() => budget.abort(), this.budgetMs);
      return (await pool.run(password, { signal: budget.signal })) as PasswordStrength;
    } catch (err) {
      if (budget.signal.aborted) {
        lane.reload();
        throw new LookupError(
          `密码强度检测超时：${this.budgetMs / 1000} 秒内未能完成（输入过于复杂或服务繁忙），请稍后重试或换一个较短的密码`,
          'server',
        );
      }
      if (err instanceof Error && err.message === 'Task queue is at limit') {
        throw new LookupError('密码强度检测繁忙：排队的检测过多，请稍后重试', 'server');
      }
      throw err;
    } finally {
      lane.busy--;
      clearTimeout(timer);
    }
  }
}
