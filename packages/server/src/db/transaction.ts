import { setTimeout as sleep } from 'node:timers/promises';
import { PostgresAdapter, type Kysely, type Transaction } from 'kysely';
import type { Dialect } from './index.js';

/** PostgreSQL's codes for a transaction it aborted so that another could go on: retrying it is the remedy. */
const RETRYABLE = new Set(['40P01' /* deadlock_detected */, '40001' /* serialization_failure */]);

/** How many times a transaction runs at most when PostgreSQL keeps aborting it for a race. */
export const TRANSACTION_ATTEMPTS = 5;

/** Whether PostgreSQL aborted the transaction for a deadlock or a serialization failure. */
export function isRetryableAbort(err: unknown): boolean {
  return RETRYABLE.has((err as { code?: unknown } | null)?.code as string);
}

/** The dialect a Kysely instance (or transaction) speaks. */
// biome-ignore lint/suspicious/noExplicitAny: any schema: only the executor is read.
export function dialectOf(db: Kysely<any>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * Runs `fn` in a transaction; when PostgreSQL aborts it for a deadlock (40P01) or a serialization failure (40001),
 * runs it again from the start, up to TRANSACTION_ATTEMPTS times with a short random pause, so that a race between
 * two requests ends with both done (one after the other) instead of a 500. `fn` must have no effect outside the
 * transaction (announce, publish or send only after it returns). SQLite serialises writes and never aborts this way.
 */
export async function transact<DB, T>(db: Kysely<DB>, fn: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(fn);
    } catch (e) {
      if (attempt >= TRANSACTION_ATTEMPTS || !isRetryableAbort(e)) throw e;
      // Jitter keeps two losers of the same race from meeting again at once.
      await sleep(Math.random() * 10 * attempt);
    }
  }
}
