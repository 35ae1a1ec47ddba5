import path from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect, sql, type SqliteDatabase } from 'kysely';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Database } from './schema.js';
import { ensurePrivateDir, ensurePrivateSqliteFile } from '../private-files.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
  ping(): Promise<void>;
  /** PostgreSQL only: the connection pool now (max: its limit, size: connections open, idle, waiting: queries queued). */
  poolStats?(): { max: number; size: number; idle: number; waiting: number };
  /** SQLite only: the whole database as bytes (`openDatabase('sqlite::memory:', { image })` opens a copy). */
  snapshot?(): Buffer;
}

const INT8_OID = 20;

/**
 * Opens the configured database. `postgres://…` selects PostgreSQL; `sqlite:<path>` (or `sqlite::memory:`) selects SQLite.
 * node-postgres returns bigint columns as strings; our bigint columns only hold masks (-1 … 1023) and counts,
 * so they are parsed to numbers here and checked to be exact. This is the one place the dialects differ in types.
 */
export function openDatabase(url: string, opts: { searchPath?: string; poolSize?: number; image?: Buffer } = {}): Db {
  if (/^postgres(ql)?:\/\//.test(url)) {
    const pool = new pg.Pool({
      connectionString: url,
      max: opts.poolSize ?? 10,
      options: opts.searchPath ? `-c search_path=${opts.searchPath}` : undefined,
      types: {
        getTypeParser: ((oid: number, format?: string) => {
          if (oid === INT8_OID) {
            return (v: string) => {
              const n = Number(v);
              if (!Number.isSafeInteger(n)) throw new Error(`bigint value ${v} is outside the safe integer range`);
              return n;
            };
          }
          return pg.types.getTypeParser(oid, format as 'text');
        }) as typeof pg.types.getTypeParser,
      },
    });
    // A connection cut by the server (a PostgreSQL restart, a failover) is reported as an 'error' event: by the
    // pool for an idle connection, by the client itself for one checked out between two queries (inside a
    // transaction). Without listeners node-postgres throws it and the process dies (seen in the cluster test).
    // The query that runs into the dead connection fails with its own error, and the pool discards the connection.
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      kysely,
      dialect: 'postgres',
      close: () => kysely.destroy(),
      ping: async () => {
        await sql`select 1`.execute(kysely);
      },
      poolStats: () => ({
        max: pool.options.max ?? 10,
        size: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
      }),
    };
  }
  const file = url.replace(/^sqlite:/, '');
  if (file !== ':memory:') {
    ensurePrivateDir(path.dirname(path.resolve(file)));
    ensurePrivateSqliteFile(file);
  }
  // An image (an earlier snapshot) opens as an in-memory copy of that database.
  const sqlite = new SQLite(opts.image && file === ':memory:' ? opts.image : file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const changes = new ChangeStamp(sqlite);
  const kysely = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite, changes) }),
  });
  changeStamps.set(kysely, () => changes.read());
  return {
    kysely,
    dialect: 'sqlite',
    close: () => kysely.destroy(),
    snapshot: () => sqlite.serialize(),
    ping: async () => {
      await sql`select 1`.execute(kysely);
    },
  };
}

/**
 * Kysely's SQLite driver calls prepare() for every query, and compiling the SQL is most of a simple query's cost
 * (measured: ~20 of ~28 µs for a primary-key lookup). Statements are reused by their SQL text instead. Safe because
 * the driver runs one query at a time on its single connection, so a cached statement is never busy twice;
 * SQLite re-prepares a statement by itself after a schema change.
 */
function withStatementCache(sqlite: SQLite.Database, changes: ChangeStamp, max = 1000): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let stmt = cache.get(text);
      if (!stmt) {
        stmt = sqlite.prepare(text);
        // Statements with a varying number of placeholders (IN lists, batch inserts) must not grow this forever.
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
        cache.set(text, stmt);
      }
      // The driver runs what it prepares at once (same tick), so a statement that may write (an insert with
      // `returning` too, which also reads) moves the stamp before it runs.
      if (!stmt.readonly) changes.wrote();
      return stmt;
    },
  };
}

/**
 * A number that moves whenever the database may have changed: before every statement of this connection that may
 * write, and when SQLite's `PRAGMA data_version` says another connection committed (the `npm run admin` recovery
 * tool, an operator's `sqlite3` shell). A value read before a query and still current later means nothing that
 * query read has changed since, so its answer may be reused (see AccessCache.user).
 */
class ChangeStamp {
  private stamp = 0;
  private version: unknown;
  private readonly dataVersion: SQLite.Statement;

  constructor(sqlite: SQLite.Database) {
    this.dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  }

  wrote(): void {
    this.stamp++;
  }

  /** The current stamp; NaN (equal to nothing) when the database cannot be asked, e.g. once it is closed. */
  read(): number {
    let version: unknown;
    try {
      version = this.dataVersion.get();
    } catch {
      return Number.NaN;
    }
    if (version !== this.version) {
      this.version = version;
      this.stamp++;
    }
    return this.stamp;
  }
}

const changeStamps = new WeakMap<Kysely<Database>, () => number>();

/**
 * For a SQLite database opened here: a function returning its change stamp (see ChangeStamp), for caches of rows
 * that must never be served after a change. Undefined for PostgreSQL (other instances write without telling this
 * one) and for a transaction (its own reads must see its own writes as they happen).
 */
export function changeStampOf(kysely: Kysely<Database>): (() => number) | undefined {
  return changeStamps.get(kysely);
}
