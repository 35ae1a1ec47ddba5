import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
  ping(): Promise<void>;
}

const INT8_OID = 20;

/**
 * Opens the configured database. `postgres://…` selects PostgreSQL; `sqlite:<path>` (or `sqlite::memory:`) selects SQLite.
 * node-postgres returns bigint columns as strings; our bigint columns only hold masks (-1 … 1023) and counts,
 * so they are parsed to numbers here and checked to be exact. This is the one place the dialects differ in types.
 */
export function openDatabase(url: string, opts: { searchPath?: string; poolSize?: number } = {}): Db {
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
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      kysely,
      dialect: 'postgres',
      close: () => kysely.destroy(),
      ping: async () => {
        await sql`select 1`.execute(kysely);
      },
    };
  }
  const file = url.replace(/^sqlite:/, '');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return {
    kysely,
    dialect: 'sqlite',
    close: () => kysely.destroy(),
    ping: async () => {
      await sql`select 1`.execute(kysely);
    },
  };
}
