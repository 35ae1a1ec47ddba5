/**
 * Worker-thread entry of the shared drawing pool (worker-entry.ts): runs each task with the default export of the
 * module it names, imported at that module's first task in this thread.
 */
import type { PoolTask } from './worker-entry.js';

const handlers = new Map<string, Promise<(task: unknown) => unknown>>();

export default function runPoolTask({ module, task }: PoolTask): Promise<unknown> {
  let handler = handlers.get(module);
  if (!handler) {
    // Sources (dev server, tests) go through tsx's loader API: the worker's `--import tsx` covers the pool's own
    // entry, not a later import() of another .ts file. The compiled server imports .js files and never needs tsx.
    const loaded: Promise<{ default: (task: unknown) => unknown }> = module.endsWith('.ts')
      ? import('tsx/esm/api').then(({ tsImport }) => tsImport(module, import.meta.url))
      : import(module);
    handler = loaded.then((m) => m.default);
    handlers.set(module, handler);
  }
  return handler.then((run) => run(task));
}
