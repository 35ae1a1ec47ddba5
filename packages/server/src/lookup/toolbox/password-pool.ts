/**
 * Runs the password-strength check in worker threads so that zxcvbn never blocks the server's event loop, and so
 * that one slow password cannot stall the others:
 *
 * - two lanes (two piscina pools): passwords of up to SHORT_LANE_MAX UTF-16 units (almost every real password)
 *   run on `workers` threads; longer ones, which is where zxcvbn's crafted worst cases live (seconds for 64
 *   repeated l33t characters), run on one thread of their own with a short queue. A flood of long crafted inputs
 *   therefore only slows down other long inputs;
 * - a time budget per check: a check not finished within `budgetMs` is abandoned (a running worker is terminated
 *   and replaced) and answered with an error that says so;
 * - weak results (score ≤ 1, i.e. found within a million guesses) are kept in a small LRU: the same common
 *   passwords are asked about again and again, and remembering one that every cracking dictionary already holds
 *   keeps nothing secret. Stronger passwords are never kept after the request.
 *
 * Pure module: no HTTP framework here (errors are LookupErrors, which the platform renders as 500 envelopes).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { LookupError } from '../../errors.js';
import type { PasswordStrength } from './password-strength.js';

/** Longest password (in UTF-16 units, zxcvbn's unit of work) that runs in the ordinary lane. */
export const SHORT_LANE_MAX = 16;
/** Default time budget of one check, queueing included. */
export const PASSWORD_BUDGET_MS = 2000;

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

interface Lane {
  pool: Piscina;
  /** Resolves once a worker of the lane has loaded the dictionaries; reset when the lane has no thread left. */
  ready?: Promise<void>;
}

/** The worker entry: compiled JavaScript next to this file, or the TypeScript source loaded through tsx. */
function workerEntry(): { filename: string; execArgv: string[] } {
  const js = new URL('./password-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(js))) return { filename: js.href, execArgv: process.execArgv };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { filename: new URL('./password-worker.ts', import.meta.url).href, execArgv: ['--import', tsx] };
}

export class PasswordPool {
  private readonly short: Lane;
  private readonly long: Lane;
  private readonly budgetMs: number;
  private readonly weak = new Map<string, PasswordStrength>();

  constructor(opts: PasswordPoolOptions) {
    this.budgetMs = opts.budgetMs ?? PASSWORD_BUDGET_MS;
    const entry = workerEntry();
    const lane = (threads: number, maxQueue: number, idleTimeout: number): Lane => {
      // Threads start on first use (minThreads 0): an instance that never checks a password costs nothing.
      const pool = new Piscina({
        ...entry,
        minThreads: 0,
        maxThreads: threads,
        maxQueue,
        idleTimeout,
        // A runaway check must not take the process's memory with it; the dictionaries need about 50 MB.
        resourceLimits: { maxOldGenerationSizeMb: 256 },
      });
      const l: Lane = { pool };
      pool.on('error', (err) => opts.onError?.(err));
      pool.on('workerDestroy', () => {
        if (pool.threads.length <= 1) l.ready = undefined;
      });
      return l;
    };
    this.short = lane(opts.workers, 64 * opts.workers, 10 * 60_000);
    this.long = lane(1, 4, 60_000);
  }

  /** Scores a password within the time budget; throws a LookupError when it cannot. */
  async check(password: string): Promise<PasswordStrength> {
    const cached = this.weak.get(password);
    if (cached) {
      this.weak.delete(password);
      this.weak.set(password, cached);
      return cached;
    }
    const lane = password.length <= SHORT_LANE_MAX ? this.short : this.long;
    await this.warm(lane);
    const result = await this.run(lane, password);
    if (result.score <= 1) {
      if (this.weak.size >= WEAK_CACHE_LIMIT) this.weak.delete(this.weak.keys().next().value as string);
      this.weak.set(password, result);
    }
    return result;
  }

  /** Stops every worker; checks still waiting fail. */
  async close(): Promise<void> {
    this.weak.clear();
    await Promise.all([this.short.pool.destroy(), this.long.pool.destroy()]);
  }

  /** The budget covers queueing and scoring, not the one-off loading of a fresh worker's dictionaries. */
  private warm(lane: Lane): Promise<void> {
    lane.ready ??= lane.pool.run('', { signal: AbortSignal.timeout(WARM_UP_LIMIT_MS) }).then(
      () => undefined,
      (err) => {
        lane.ready = undefined;
        throw err;
      },
    );
    return lane.ready;
  }

  private async run(lane: Lane, password: string): Promise<PasswordStrength> {
    const budget = new AbortController();
    const timer = setTimeout(() => budget.abort(), this.budgetMs);
    try {
      return (await lane.pool.run(password, { signal: budget.signal })) as PasswordStrength;
    } catch (err) {
      if (budget.signal.aborted) {
        throw new LookupError(`密码强度检测超时：${this.budgetMs / 1000} 秒内未能完成（输入过于复杂或服务繁忙），请稍后重试或换一个较短的密码`);
      }
      if (err instanceof Error && err.message === 'Task queue is at limit') {
        throw new LookupError('密码强度检测繁忙：排队的检测过多，请稍后重试');
      }
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }
}
