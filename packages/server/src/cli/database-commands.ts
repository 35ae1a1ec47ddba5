import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  BackupWriter,
  backupHeader,
  backupTables,
  verifyBackup,
} from '../db/backup-file.js';
import { openDatabase, type Db } from '../db/index.js';
import { migrateToLatest } from '../db/migrate.js';
import {
  Checksum,
  TABLE_NAMES,
  TransferError,
  appliedMigrations,
  batchSize,
  checkTables,
  clearTables,
  readSnapshot,
  rowsFound,
  schemaOf,
  versionProblem,
  writeTable,
  type Row,
  type TableCheck,
  type TableName,
} from '../db/transfer.js';
import { EXIT, USAGE, type CliIo } from './admin-commands.js';

/**
 * copy-database, backup and restore: moving an installation between SQLite and PostgreSQL, and into a file and back
 * (docs/deploy.md 「从单机迁移到集群」「备份与恢复」). Each reads its source in one snapshot, writes a table per
 * transaction into an empty target, and ends by counting and checksumming every table on both sides.
 */
const DATABASE_COMMANDS: readonly string[] = ['copy-database', 'backup', 'restore'];

/** Whether argv names one of these commands (its first word that is neither an option nor an option's value). */
export function isDatabaseCommand(argv: string[]): boolean {
  const options = { to: { type: 'string' }, password: { type: 'string', short: 'p' } } as const;
  const [command] = parseArgs({ args: argv, strict: false, allowPositionals: true, options }).positionals;
  return DATABASE_COMMANDS.includes(command);
}

export interface TransferOptions {
  /** Empty a target that holds rows first (instead of refusing). */
  replace?: boolean;
  /** How the target is named in messages (its URL without the password). */
  targetLabel?: string;
  /**
   * Tests only: what is written of each batch read, to break a copy on purpose and see the check catch it, or to
   * write to the source from elsewhere mid-copy and see the snapshot hold.
   */
  tamper?: (table: TableName, rows: Row[]) => Row[] | Promise<Row[]>;
}

/** A database URL with its password replaced, for messages. */
export const redactUrl = (url: string) => url.replace(/^(\w+:\/\/[^:@/]*):[^@/]*@/, '$1:***@');

/** Why a database cannot be reached, in words (no driver code in front of a person). */
function unreachable(e: unknown): string {
  const err = e as { code?: string; message?: string };
  const reasons: Record<string, string> = {
    ECONNREFUSED: '连接被拒绝（地址或端口不对，或 PostgreSQL 没有运行）',
    ENOTFOUND: '找不到这台主机',
    EAI_AGAIN: '找不到这台主机',
    ETIMEDOUT: '连接超时',
    '28P01': '用户名或密码不对',
    '28000': '这个用户不允许连接',
    '3D000': '这个数据库不存在（先用 createdb 建好）',
    SQLITE_CANTOPEN: '文件打不开（目录不存在或没有写权限）',
  };
  return reasons[err.code ?? ''] ?? err.message ?? String(e);
}

async function reach<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof TransferError) throw e;
    throw new TransferError(`连不上${what}：${unreachable(e)}`);
  }
}

/** Refuses a source this code cannot read as it is: newer, older or never migrated. */
async function checkSource(source: Db): Promise<string[]> {
  const applied = await reach('源数据库', () => appliedMigrations(source));
  const problem = versionProblem(applied, '源数据库');
  if (problem) throw new TransferError(problem);
  return applied;
}

/**
 * Refuses, before anything is written, a database of a newer schema version, and one holding rows unless `replace`.
 * Returns what it holds ('users 3 行、…'), for makeEmpty.
 */
async function checkEmpty(db: Db, what: string, replace: boolean): Promise<string | undefined> {
  const problem = versionProblem(await reach(what, () => appliedMigrations(db)), what, true);
  if (problem) throw new TransferError(problem);
  const found = await rowsFound(db);
  if (found && !replace)
    throw new TransferError(
      `${what}不是空的，里面有：${found}。确认这些数据可以丢弃后加 --replace（先清空再写入），或换一个空的数据库`,
    );
  return found;
}

/** Migrates a database checkEmpty accepted, and empties it when it held rows (`--replace`). */
async function makeEmpty(db: Db, what: string, io: CliIo, found: string | undefined): Promise<void> {
  await migrateToLatest(db);
  if (!found) return;
  await clearTables(db);
  io.out(`已清空${what}原有的数据（--replace）：${found}`);
}

function sameColumns(a: Record<string, string[]>, b: Record<string, string[]>, what: string): void {
  const differ = TABLE_NAMES.filter((t) => a[t]?.join() !== b[t]?.join());
  if (differ.length) throw new TransferError(`${what}的表结构不一致（${differ.join('、')}）：两边不是同一版本的天机`);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} 秒`;

/** Prints a table's line: rows done / total, the rate, the time. */
function progressLine(io: CliIo, table: string, done: number, total: number, ms: number, final = true): void {
  const rate = Math.round(done / Math.max(ms / 1000, 0.001));
  io.out(
    `  ${table.padEnd(19)} ${`${done.toLocaleString('en')} / ${total.toLocaleString('en')} 行`.padStart(19)}` +
      `  ${rate.toLocaleString('en')} 行/秒  ${seconds(ms)}${final ? '' : ' …'}`,
  );
}

/** Writes one table's batches with a line at the end (and one every 5 s for a long table). */
async function writeWithProgress(
  io: CliIo,
  target: Db,
  table: TableName,
  columns: string[],
  total: number,
  batches: AsyncIterable<Row[]>,
): Promise<number> {
  const started = Date.now();
  let said = started;
  const done = await writeTable(target, table, columns, batches, (n) => {
    if (Date.now() - said < 5000) return;
    said = Date.now();
    progressLine(io, table, n, total, said - started, false);
  });
  progressLine(io, table, done, total, Date.now() - started);
  return done;
}

const width = (s: string) => [...s].reduce((w, c) => w + (c.charCodeAt(0) > 0x2e80 ? 2 : 1), 0);
const pad = (s: string, n: number, right = false) =>
  right ? ' '.repeat(Math.max(0, n - width(s))) + s : s + ' '.repeat(Math.max(0, n - width(s)));

/** Prints every table's rows and checksum on both sides; true when all agree. */
function printChecks(io: CliIo, sides: [string, string], a: TableCheck[], b: TableCheck[]): boolean {
  io.out('');
  io.out(`核对（每张表的行数和校验和，${sides[0]} → ${sides[1]}）：`);
  const rows = [['表', `${sides[0]}行数`, `${sides[1]}行数`, `${sides[0]}校验和`, `${sides[1]}校验和`, '结果']];
  let ok = true;
  for (const x of a) {
    const y = b.find((c) => c.table === x.table);
    const same = y !== undefined && y.rows === x.rows && y.checksum === x.checksum;
    ok &&= same;
    const cells = [String(x.rows), String(y?.rows ?? '-'), x.checksum.slice(0, 16), y?.checksum.slice(0, 16) ?? '-'];
    rows.push([x.table, ...cells, same ? '一致' : '不一致']);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => width(r[i]))));
  for (const r of rows) io.out(`  ${r.map((c, i) => pad(c, widths[i], i === 1 || i === 2)).join('  ')}`);
  const differ = a.filter((x) => rows.find((r) => r[0] === x.table)?.[5] !== '一致').map((x) => x.table);
  io.out(
    ok
      ? `全部 ${a.length} 张表一致。`
      : `不一致：${differ.join('、')}。不要使用这份${sides[1]}：查明原因后加 --replace 重做。`,
  );
  return ok;
}

/** Empties a target after a failed write, so that it never holds half an installation. */
async function undo(target: Db, what: string, e: unknown): Promise<never> {
  const cleared = await clearTables(target).then(
    () => `${what}已清空，没有留下半份数据`,
    () => `${what}可能留下了部分数据：加 --replace 重做`,
  );
  throw new TransferError(`写入${what}时失败：${(e as Error).message}。${cleared}`);
}

/** `copy-database`: every row of `source` into the empty `target`, then the check. Returns the exit code. */
export async function copyDatabase(source: Db, target: Db, io: CliIo, opts: TransferOptions = {}): Promise<number> {
  await checkSource(source);
  const what = `目标数据库${opts.targetLabel ? `（${opts.targetLabel}）` : ''}`;
  await makeEmpty(target, what, io, await checkEmpty(target, what, opts.replace ?? false));
  const columns = await schemaOf(source);
  sameColumns(columns, await schemaOf(target), '源和目标');
  // SQLite tells a connection whether another one committed since it last asked: a server still writing.
  const dataVersion = async () =>
    source.dialect === 'sqlite' ? (await sql<{ v: number }>`pragma data_version`.execute(source.kysely)).rows[0] : 0;
  const before = await dataVersion();
  io.out(`从一致的快照复制 ${TABLE_NAMES.length} 张表：`);
  const started = Date.now();
  const sums = await readSnapshot(source, async (reader) => {
    const out: TableCheck[] = [];
    for (const table of TABLE_NAMES) {
      const total = await reader.count(table);
      const sum = new Checksum();
      async function* read() {
        for await (const rows of reader.batches(table, columns[table])) {
          for (const r of rows) sum.add(r);
          yield opts.tamper ? await opts.tamper(table, rows) : rows;
        }
      }
      await writeWithProgress(io, target, table, columns[table], total, read()).catch((e) =>
        undo(target, '目标数据库', e),
      );
      out.push({ table, rows: sum.rows, checksum: sum.digest() });
    }
    return out;
  });
  if (JSON.stringify(await dataVersion()) !== JSON.stringify(before))
    io.out('注意：复制期间有别的进程写了源数据库（服务还在运行？）。副本是开始复制那一刻的快照，之后的写入不在里面。');
  const checked = Date.now();
  const same = printChecks(io, ['源', '目标'], sums, await checkTables(target));
  io.out(`复制用时 ${seconds(checked - started)}，核对用时 ${seconds(Date.now() - checked)}。`);
  return same ? EXIT.OK : EXIT.FAILED;
}

/** `backup <file>`: the installation into one portable file (written whole or not at all), then checked. */
export async function backupDatabase(source: Db, file: string, io: CliIo, opts: TransferOptions = {}): Promise<number> {
  const migrations = await checkSource(source);
  if (existsSync(file) && !opts.replace)
    throw new TransferError(`${file} 已经存在：换一个文件名，或加 --replace 覆盖它`);
  const columns = await schemaOf(source);
  const writer = new BackupWriter(file);
  try {
    const sums = await readSnapshot(source, async (reader) => {
      const tables = [];
      for (const name of TABLE_NAMES) tables.push({ name, columns: columns[name], rows: await reader.count(name) });
      const createdAt = new Date().toISOString();
      await writer.write([
        { format: BACKUP_FORMAT, version: BACKUP_VERSION, createdAt, dialect: source.dialect, migrations, tables },
      ]);
      io.out(`从一致的快照备份 ${TABLE_NAMES.length} 张表到 ${file}：`);
      const out: TableCheck[] = [];
      for (const { name, rows } of tables) {
        const started = Date.now();
        const sum = new Checksum();
        await writer.write([{ table: name }]);
        for await (const batch of reader.batches(name, columns[name])) {
          for (const r of batch) sum.add(r);
          await writer.write(batch);
        }
        progressLine(io, name, sum.rows, rows, Date.now() - started);
        out.push({ table: name, rows: sum.rows, checksum: sum.digest() });
      }
      return out;
    });
    await writer.write([{ end: true, tables: sums }]);
    await writer.finish();
    return printChecks(io, ['数据库', '文件'], sums, (await verifyBackup(file)).checks) ? EXIT.OK : EXIT.FAILED;
  } catch (e) {
    await writer.abandon();
    throw e;
  }
}

/** `restore <file>`: a checked backup into the empty configured database, then the check. */
export async function restoreDatabase(
  target: Db,
  file: string,
  io: CliIo,
  opts: TransferOptions = {},
): Promise<number> {
  const problem = versionProblem((await backupHeader(file)).migrations, '备份文件');
  if (problem) throw new TransferError(problem);
  const found = await checkEmpty(target, '数据库', opts.replace ?? false);
  const started = Date.now();
  const { header, checks } = await verifyBackup(file);
  io.out(`备份文件完整（${header.createdAt} 从 ${header.dialect} 备份，${header.tables.length} 张表）。`);
  await makeEmpty(target, '数据库', io, found);
  const columns = await schemaOf(target);
  sameColumns(Object.fromEntries(header.tables.map((t) => [t.name, t.columns])), columns, '备份文件和数据库');
  for await (const { table, batches } of backupTables(file, batchSize)) {
    const total = header.tables.find((t) => t.name === table)!.rows;
    await writeWithProgress(io, target, table, columns[table], total, batches).catch((e) => undo(target, '数据库', e));
  }
  const checked = Date.now();
  const same = printChecks(io, ['文件', '数据库'], checks, await checkTables(target));
  io.out(`恢复用时 ${seconds(checked - started)}（含先把文件完整读一遍），核对用时 ${seconds(Date.now() - checked)}。`);
  return same ? EXIT.OK : EXIT.FAILED;
}

/** The configured database as a source: a SQLite file must exist (opening would create an empty one). */
function openSource(url: string): Db {
  const file = url.replace(/^sqlite:/, '');
  if (url.startsWith('sqlite:') && file !== ':memory:' && !existsSync(file))
    throw new TransferError(`源数据库 ${file} 不存在（DATA_DIR / DATABASE_URL 决定它在哪里）`);
  return openDatabase(url);
}

function openTarget(url: string): Db {
  if (!/^(postgres(ql)?:\/\/|sqlite:)/.test(url))
    throw new TransferError(`参数 --to 无效：${redactUrl(url)}；应为 postgres://… 或 sqlite:<文件路径>`);
  try {
    return openDatabase(url);
  } catch (e) {
    throw new TransferError(`连不上目标数据库 ${redactUrl(url)}：${unreachable(e)}`);
  }
}

/**
 * Runs copy-database, backup or restore against the configured database (`databaseUrl`) and returns the exit code.
 * The databases are opened here and closed before it returns.
 */
class UsageError extends Error {}

export async function runDatabaseCli(argv: string[], databaseUrl: string, io: CliIo): Promise<number> {
  const dbs: Db[] = [];
  try {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { to: { type: 'string' }, replace: { type: 'boolean' } },
    });
    const [command, file, ...extra] = positionals;
    const replace = values.replace ?? false;
    if (command === 'copy-database') {
      if (!values.to || file !== undefined)
        throw new UsageError('copy-database 需要 --to <postgres://… 或 sqlite:文件>，不带其他参数');
      if (values.to === databaseUrl) throw new TransferError('--to 指向的就是源数据库本身：目标必须是另一个数据库');
      const targetLabel = redactUrl(values.to);
      const target = openTarget(values.to);
      dbs.push(target);
      const source = openSource(databaseUrl);
      dbs.push(source);
      return await copyDatabase(source, target, io, { replace, targetLabel });
    }
    if (!file || extra.length || values.to) throw new UsageError(`${command} 需要且只需要一个 <文件>`);
    if (command === 'backup') {
      dbs.push(openSource(databaseUrl));
      return await backupDatabase(dbs[0], file, io, { replace });
    }
    if (command !== 'restore') throw new UsageError(`不认识的命令 "${command}"`);
    dbs.push(openTarget(databaseUrl));
    return await restoreDatabase(dbs[0], file, io, { replace });
  } catch (e) {
    if (e instanceof TransferError) {
      io.err(`错误：${e.message}`);
      return EXIT.FAILED;
    }
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`参数无效：${(e as Error).message}\n\n${USAGE}`);
      return EXIT.USAGE;
    }
    io.err(`错误：${(e as Error).message}`);
    return EXIT.FAILED;
  } finally {
    for (const db of dbs) await db.close().catch(() => undefined);
  }
}
