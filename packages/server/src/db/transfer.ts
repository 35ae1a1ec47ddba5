import { createHash } from 'node:crypto';
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Db } from './index.js';
import { MIGRATION_NAMES } from './migrate.js';
import type { Database } from './schema.js';

/**
 * Moving every row of an installation between databases of either dialect (copy-database, backup, restore).
 *
 * Values travel as text: every column is read as `cast(col as text)`, which gives the same digits on SQLite and
 * PostgreSQL for our integers (64-bit masks such as -1 included, exactly: no JavaScript number in between), and the
 * target turns the text back into its own column type (PostgreSQL infers the parameter's type from the column;
 * SQLite's column affinity stores integer-looking text in an INTEGER column as an integer). Ids, hashes, secrets and
 * timestamps are text already and pass unchanged. So one row form serves both dialects, the backup file and the
 * checksums.
 */

/** One row: its columns' values as text (null stays null), in the order of the table's sorted column names. */
export type Row = (string | null)[];

interface TableSpec {
  /** The primary key: batches are read in its order (keyset pagination, within one snapshot). */
  key: readonly string[];
  /** A column referencing the same table: its rows are written parents first. */
  parent?: string;
  /** A one-row table that the migrations create with its row: the copy replaces that row, emptiness ignores it. */
  singleton?: true;
}

/**
 * Every table, in foreign-key order (a table after those it references). Typed over `Database`, so a table added to
 * schema.ts without a line here does not compile. access_revision comes after the tables whose triggers bump it.
 */
const TABLES: { [T in keyof Database]: TableSpec } = {
  users: { key: ['id'] },
  roles: { key: ['id'] },
  menus: { key: ['id'], parent: 'parent_id' },
  user_roles: { key: ['user_id', 'role_id'] },
  role_menus: { key: ['role_id', 'menu_id'] },
  sessions: { key: ['id'] },
  refresh_tokens: { key: ['id'] },
  mfa_recovery_codes: { key: ['id'] },
  passkeys: { key: ['id'] },
  device_authorizations: { key: ['id'] },
  login_logs: { key: ['id'] },
  login_failures: { key: ['key'] },
  audit_logs: { key: ['id'] },
  content_meta: { key: ['library'] },
  content_items: { key: ['id'] },
  api_keys: { key: ['id'] },
  api_usage: { key: ['endpoint', 'day', 'api_key_id'] },
  api_key_policy: { key: ['id'], singleton: true },
  access_revision: { key: ['id'], singleton: true },
};

export type TableName = keyof Database;
export const TABLE_NAMES = Object.keys(TABLES) as TableName[];

/** A refusal or a failure for the operator: the message is Chinese and says what to do. */
export class TransferError extends Error {}

/** Rows read or written per statement (PostgreSQL allows 65,535 parameters, SQLite 32,766). */
export const batchSize = (columns: number) => Math.min(1000, Math.floor(30_000 / columns));

// biome-ignore lint/suspicious/noExplicitAny: raw SQL over tables named at run time; rows are typed as Row.
type AnyDb = Kysely<any> | Transaction<any>;

/** The tables of the database (its current schema on PostgreSQL). The one place the dialects differ here. */
async function tablesOf(db: Db): Promise<Set<string>> {
  const q =
    db.dialect === 'postgres'
      ? sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema()`
      : sql<{ name: string }>`select name from sqlite_master where type = 'table'`;
  return new Set((await q.execute(db.kysely)).rows.map((r) => r.name));
}

/** A table's column names, sorted (the order of a Row). */
async function columnsOf(db: Db, table: string): Promise<string[]> {
  const q =
    db.dialect === 'postgres'
      ? sql<{ name: string }>`select column_name as name from information_schema.columns
          where table_schema = current_schema() and table_name = ${table}`
      : sql<{ name: string }>`select name from pragma_table_info(${table})`;
  return (await q.execute(db.kysely)).rows.map((r) => r.name).sort();
}

/** The migrations a database has applied (its schema version); empty for a database never migrated. */
export async function appliedMigrations(db: Db): Promise<string[]> {
  if (!(await tablesOf(db)).has('kysely_migration')) return [];
  const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db.kysely);
  return rows.rows.map((r) => r.name);
}

/**
 * Why a schema version cannot be used with this code, in Chinese, or undefined when it is this code's.
 * `what` names the holder ('源数据库', '目标数据库', '备份文件'); `olderOk` accepts a version this code can migrate up.
 */
export function versionProblem(applied: readonly string[], what: string, olderOk = false): string | undefined {
  const unknown = applied.filter((m) => !MIGRATION_NAMES.includes(m));
  if (unknown.length)
    return `${what}的结构版本比这个版本的天机新（有本版本不认识的迁移 ${unknown.join('、')}）：请用与它同一版本或更新版本的天机操作`;
  const missing = MIGRATION_NAMES.filter((m) => !applied.includes(m));
  if (missing.length && applied.length && !olderOk)
    return `${what}的结构版本比这个版本的天机旧（缺迁移 ${missing.join('、')}）：先用这一版本的天机启动一次服务让它迁移，或用生成它的那个版本操作`;
  if (missing.length && !applied.length && !olderOk) return `${what}里没有天机的数据（从未迁移过）`;
  return undefined;
}

/** Tables holding rows (the one-row tables the migrations fill are not counted), as 'users 3 行、roles 2 行'. */
export async function rowsFound(db: Db): Promise<string | undefined> {
  const present = await tablesOf(db);
  const found: string[] = [];
  for (const t of TABLE_NAMES) {
    if (TABLES[t].singleton || !present.has(t)) continue;
    const n = await countRows(db.kysely, t);
    if (n > 0) found.push(`${t} ${n} 行`);
  }
  return found.length ? found.join('、') : undefined;
}

async function countRows(db: AnyDb, table: string): Promise<number> {
  const r = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(db);
  return Number(r.rows[0].n);
}

/** Deletes every row except the migrations' one-row tables, in one transaction (children before parents). */
export async function clearTables(db: Db): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    for (const t of [...TABLE_NAMES].reverse())
      if (!TABLES[t].singleton) await sql`delete from ${sql.table(t)}`.execute(trx);
  });
}

/** Reads the tables of one consistent snapshot. */
export interface SnapshotReader {
  count(table: TableName): Promise<number>;
  /** The table's rows in batches, parents first where the table references itself. */
  batches(table: TableName, columns: readonly string[]): AsyncGenerator<Row[]>;
}

/**
 * Runs `fn` inside one read transaction, so every table it reads comes from the same moment, whatever a running
 * server writes meanwhile: PostgreSQL's REPEATABLE READ READ ONLY, SQLite's deferred transaction (WAL lets writers
 * go on; the reader keeps its snapshot until it commits).
 */
export function readSnapshot<T>(db: Db, fn: (reader: SnapshotReader) => Promise<T>): Promise<T> {
  const begin = db.kysely.transaction();
  // SQLite has one connection: nothing else may query `db` until `fn` returns.
  return (
    db.dialect === 'postgres' ? begin.setIsolationLevel('repeatable read').setAccessMode('read only') : begin
  ).execute((trx) => fn({ count: (t) => countRows(trx, t), batches: (t, cols) => readBatches(trx, t, cols) }));
}

const asText = (columns: readonly string[]) =>
  sql.join(columns.map((c) => sql`cast(${sql.ref(c)} as text) as ${sql.ref(c)}`));

async function* readBatches(trx: AnyDb, table: TableName, columns: readonly string[]): AsyncGenerator<Row[]> {
  const { key, parent } = TABLES[table];
  const size = batchSize(columns.length);
  const toRow = (r: Record<string, string | null>): Row => columns.map((c) => r[c]);
  const order = sql.join(key.map((k) => sql.ref(k)));
  if (parent) {
    // A small table (the menu tree): read whole, written parents first.
    const all = await sql<Record<string, string | null>>`select ${asText(columns)} from ${sql.table(table)}
      order by ${order}`.execute(trx);
    const rows = parentsFirst(all.rows, key[0], parent);
    for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size).map(toRow);
    return;
  }
  let last: Record<string, string | null> | undefined;
  for (;;) {
    // Keyset pagination in the database's own order of the key; the key's text compares against the typed column.
    const after: RawBuilder<unknown> = last ? sql`where (${order}) > (${sql.join(key.map((k) => last![k]))})` : sql``;
    const page = await sql<Record<string, string | null>>`select ${asText(columns)} from ${sql.table(table)}
      ${after} order by ${order} limit ${size}`.execute(trx);
    if (page.rows.length) yield page.rows.map(toRow);
    if (page.rows.length < size) return;
    last = page.rows[page.rows.length - 1];
  }
}

function parentsFirst<R extends Record<string, string | null>>(rows: R[], id: string, parent: string): R[] {
  const placed = new Set<string | null>([null]);
  const out: R[] = [];
  let rest = rows;
  while (rest.length) {
    const ready = rest.filter((r) => placed.has(r[parent]) || !rows.some((p) => p[id] === r[parent]));
    if (!ready.length) return [...out, ...rest]; // a cycle: let the database say what is wrong
    for (const r of ready) placed.add(r[id]);
    out.push(...ready);
    rest = rest.filter((r) => !ready.includes(r));
  }
  return out;
}

/**
 * Writes a table's rows into the target in one transaction, a batch per statement, and returns how many it wrote.
 * A one-row table's migration row is replaced. `progress` hears the running total after every batch.
 */
export async function writeTable(
  target: Db,
  table: TableName,
  columns: readonly string[],
  batches: AsyncIterable<Row[]>,
  progress: (done: number) => void = () => undefined,
): Promise<number> {
  return target.kysely.transaction().execute(async (trx) => {
    if (TABLES[table].singleton) await sql`delete from ${sql.table(table)}`.execute(trx);
    let done = 0;
    const cols = sql.join(columns.map((c) => sql.ref(c)));
    for await (const rows of batches) {
      if (!rows.length) continue;
      const values = sql.join(rows.map((r) => sql`(${sql.join(r)})`));
      await sql`insert into ${sql.table(table)} (${cols}) values ${values}`.execute(trx);
      done += rows.length;
      progress(done);
    }
    return done;
  });
}

/**
 * An order-free checksum of a table's rows: the sum, modulo 2^128, of each row's SHA-256 (of its values as JSON).
 * Rows are hashed as text, so the same rows give the same checksum on either dialect, in whatever order they come.
 */
export class Checksum {
  private sum = 0n;
  rows = 0;
  add(row: Row): void {
    const hash = createHash('sha256').update(JSON.stringify(row)).digest('hex');
    this.sum = (this.sum + BigInt(`0x${hash.slice(0, 32)}`)) & MASK_128;
    this.rows++;
  }
  digest(): string {
    return this.sum.toString(16).padStart(32, '0');
  }
}
const MASK_128 = (1n << 128n) - 1n;

export interface TableCheck {
  table: TableName;
  rows: number;
  checksum: string;
}

/** Every table's sorted column names. */
export async function schemaOf(db: Db): Promise<Record<TableName, string[]>> {
  const out = {} as Record<TableName, string[]>;
  for (const t of TABLE_NAMES) out[t] = await columnsOf(db, t);
  return out;
}

/** Counts and checksums every table of a database, from one snapshot. */
export async function checkTables(db: Db): Promise<TableCheck[]> {
  const columns = await schemaOf(db);
  return readSnapshot(db, async (reader) => {
    const out: TableCheck[] = [];
    for (const table of TABLE_NAMES) {
      const sum = new Checksum();
      for await (const rows of reader.batches(table, columns[table])) for (const r of rows) sum.add(r);
      out.push({ table, rows: sum.rows, checksum: sum.digest() });
    }
    return out;
  });
}
