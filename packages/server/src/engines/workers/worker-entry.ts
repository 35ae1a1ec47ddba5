import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { LookupError } from '../../errors.js';

/**
 * The entry file of a worker thread that sits next to the calling module: the compiled `.js` when running from
 * dist/, otherwise the TypeScript source loaded through tsx (dev server, vitest).
 *
 * The compiled entry gives no execArgv, so the thread inherits the process's: Node then drops what a thread cannot
 * take, whereas passing `process.execArgv` explicitly made `node --max-old-space-size=512 dist/server.js` (or
 * `--expose-gc`) fail every thread with ERR_WORKER_INVALID_EXEC_ARGV.
 *
 * @example new Piscina(workerEntry(import.meta.url, 'svg-png-worker'))
 */
export function workerEntry(moduleUrl: string, name: string): { filename: string; execArgv?: string[] } {
  const js = new URL(`./${name}.js`, moduleUrl);
  if (existsSync(fileURLToPath(js))) return { filename: js.href };
  const tsx = pathToFileURL(createRequire(moduleUrl).resolve('tsx')).href;
  return { filename: new URL(`./${name}.ts`, moduleUrl).href, execArgv: ['--import', tsx] };
}

/** Drawing tasks waiting beyond the running ones, all kinds together; a 2048×2048 PNG takes about a quarter second. */
const MAX_QUEUE = 64;

/**
 * The process's one pool of drawing threads (PNG rendering, barcodes), created on first use. One pool rather than one
 * per kind: every thread is a V8 isolate with its own heap and the drawing libraries' native memory, ~40 MB each
 * under load, and on this 2-CPU machine each pool had one thread anyway. A thread loads a kind's module at its first
 * task of that kind (pool-thread.ts).
 */
let pool: Piscina | undefined;

/**
 * Runs tasks with the default export of the module `name` next to `moduleUrl`, in the shared drawing pool. Threads
 * start on demand and stop when idle; beyond the queue's bound `run` rejects with `busyMessage` as a LookupError
 * instead of letting work pile up without bound.
 */
export function lazyPool(moduleUrl: string, name: string, busyMessage: string) {
  const module = workerEntry(moduleUrl, name).filename;
  return async <T>(task: unknown): Promise<T> => {
    pool ??= new Piscina({
      ...workerEntry(import.meta.url, 'pool-thread'),
      minThreads: 0,
      maxThreads: Math.max(1, Math.min(2, availableParallelism() - 1)),
      maxQueue: MAX_QUEUE,
      idleTimeout: 30_000,
      // Piscina's default ('sync') blocks the thread between back-to-back tasks, so callbacks queued on its event
      // loop wait until the queue drains: among them the finalizers that free resvg's native pixel buffers, which
      // piled up to ~20 MB per large render under load. 'async' lets the loop turn between tasks.
      atomics: 'async',
      // A JavaScript heap bound per thread: V8 collects sooner instead of growing under back-to-back tasks (bwip-js
      // builds large PostScript structures; the largest barcode allowed, PDF417 of 800 characters at scale 8, fits),
      // and a runaway task fails alone instead of growing the process.
      resourceLimits: { maxOldGenerationSizeMb: 64 },
    });
    try {
      return (await pool.run({ module, task } satisfies PoolTask)) as T;
    } catch (err) {
      if (err instanceof Error && err.message === 'Task queue is at limit')
        throw new LookupError(busyMessage, 'server');
      throw err;
    }
  };
}

/** What pool-thread.ts receives: the module whose default export runs the task, and the task. */
export interface PoolTask {
  module: string;
  task: unknown;
}
