import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { Checksum, TABLE_NAMES, TransferError, type Row, type TableCheck, type TableName } from './transfer.js';

/**
 * The backup file: gzipped JSON lines, the same for both dialects (docs/deploy.md, 「备份与恢复」).
 *
 *   {"format":"tianji-backup","version":1,"createdAt":…,"dialect":"sqlite","migrations":[…],"tables":[{name,columns,rows}…]}
 *   {"table":"users"}
 *   ["<id>","<created_at>",…]          one line per row: its values as text, in the header's column order
 *   …
 *   {"end":true,"tables":[{"table":"users","rows":3,"checksum":"…"}…]}
 *
 * Row counts are known at the start (counted in the snapshot); checksums only at the end, hence the last line.
 * A file without that line was cut short, and restore refuses it before writing anything.
 */
export const BACKUP_FORMAT = 'tianji-backup';
export const BACKUP_VERSION = 1;

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  dialect: string;
  migrations: string[];
  tables: { name: TableName; columns: string[]; rows: number }[];
}

/** Writes a backup to `<file>.partial` and renames it to `file` once complete, so a file by that name is whole. */
export class BackupWriter {
  private readonly gzip = createGzip();
  private readonly out: ReturnType<typeof createWriteStream>;
  private readonly partial: string;

  constructor(private readonly file: string) {
    this.partial = `${file}.partial`;
    this.out = createWriteStream(this.partial, { mode: 0o600 });
    this.gzip.pipe(this.out);
  }

  async write(lines: unknown[]): Promise<void> {
    if (!this.gzip.write(`${lines.map((l) => JSON.stringify(l)).join('\n')}\n`)) await once(this.gzip, 'drain');
  }

  async finish(): Promise<void> {
    this.gzip.end();
    await finished(this.out);
    await rename(this.partial, this.file);
  }

  async abandon(): Promise<void> {
    this.gzip.destroy();
    this.out.destroy();
    await rm(this.partial, { force: true });
  }
}

/** The file's lines, parsed; a file that is not gzip or not JSON lines fails with a Chinese message naming it. */
async function* jsonLines(file: string): AsyncGenerator<unknown> {
  if (!existsSync(file)) throw new TransferError(`备份文件不存在：${file}`);
  const gunzip = createGunzip();
  const input = createReadStream(file);
  input.on('error', (e) => gunzip.destroy(e));
  input.pipe(gunzip).setEncoding('utf8');
  let rest = '';
  let n = 0;
  const parse = (line: string) => {
    n++;
    try {
      return JSON.parse(line) as unknown;
    } catch {
      throw new TransferError(`${file} 不是天机的备份文件（第 ${n} 行不是 JSON）`);
    }
  };
  try {
    for await (const chunk of gunzip) {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop()!;
      for (const line of lines) yield parse(line);
    }
  } catch (e) {
    if (e instanceof TransferError) throw e;
    throw new TransferError(
      n === 0
        ? `${file} 不是天机的备份文件（不是 gzip 压缩的文件）`
        : `备份文件 ${file} 已损坏或不完整（解压到第 ${n} 行时出错：${(e as Error).message}）`,
    );
  }
  if (rest) yield parse(rest);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function headerOf(file: string, line: unknown): BackupHeader {
  if (!isObject(line) || line.format !== BACKUP_FORMAT)
    throw new TransferError(`${file} 不是天机的备份文件（第一行不是 "format":"${BACKUP_FORMAT}" 的文件头）`);
  if (line.version !== BACKUP_VERSION)
    throw new TransferError(
      `${file} 的备份格式版本是 ${String(line.version)}，这个版本的天机只认识版本 ${BACKUP_VERSION}：请用生成它的那个版本恢复`,
    );
  const header = line as unknown as BackupHeader;
  const names = Array.isArray(header.tables) ? header.tables.map((t) => t.name) : [];
  if (!Array.isArray(header.migrations) || names.some((t) => !TABLE_NAMES.includes(t)))
    throw new TransferError(`${file} 的文件头不完整或有本版本不认识的表（${names.join('、')}）`);
  return header;
}

/** The file's first line, checked to be a backup header (reads no further). */
export async function backupHeader(file: string): Promise<BackupHeader> {
  const lines = jsonLines(file);
  try {
    const first = await lines.next();
    if (first.done) throw new TransferError(`${file} 是空文件，不是天机的备份文件`);
    return headerOf(file, first.value);
  } finally {
    await lines.return(undefined);
  }
}

/**
 * Reads the whole file once and checks it: the header, every row's shape, and each table's row count and checksum
 * against the header and the last line. Returns the header and the checks, or throws before anything is written.
 */
export async function verifyBackup(file: string): Promise<{ header: BackupHeader; checks: TableCheck[] }> {
  let header: BackupHeader | undefined;
  let current: { name: TableName; columns: string[]; rows: number; sum: Checksum } | undefined;
  const sums = new Map<TableName, Checksum>();
  let end: TableCheck[] | undefined;
  for await (const line of jsonLines(file)) {
    if (!header) {
      header = headerOf(file, line);
      continue;
    }
    if (end) throw new TransferError(`备份文件 ${file} 在结尾行之后还有内容`);
    if (Array.isArray(line)) {
      if (!current || line.length !== current.columns.length || line.some((v) => v !== null && typeof v !== 'string'))
        throw new TransferError(`备份文件 ${file} 已损坏：${current?.name ?? '文件头'}之后有一行不是该表的行`);
      current.sum.add(line as Row);
    } else if (isObject(line) && typeof line.table === 'string') {
      const spec = header.tables.find((t) => t.name === line.table);
      if (!spec || sums.has(spec.name))
        throw new TransferError(`备份文件 ${file} 已损坏：表 ${line.table} 不在文件头里或出现了两次`);
      current = { ...spec, sum: new Checksum() };
      sums.set(spec.name, current.sum);
    } else if (isObject(line) && line.end === true && Array.isArray(line.tables)) {
      end = line.tables as TableCheck[];
    } else throw new TransferError(`备份文件 ${file} 已损坏：有一行既不是表头、行，也不是结尾`);
  }
  if (!header) throw new TransferError(`${file} 是空文件，不是天机的备份文件`);
  if (!end) throw new TransferError(`备份文件 ${file} 不完整：没有结尾行（写入时中断或被截断）`);
  for (const t of header.tables) {
    const sum = sums.get(t.name);
    const last = end.find((c) => c.table === t.name);
    if (!sum || sum.rows !== t.rows || !last || last.rows !== t.rows || last.checksum !== sum.digest())
      throw new TransferError(
        `备份文件 ${file} 已损坏：表 ${t.name} 应有 ${t.rows} 行，读到 ${sum?.rows ?? 0} 行${sum && last && last.checksum !== sum.digest() ? '，校验和不符' : ''}`,
      );
  }
  return { header, checks: end };
}

/**
 * The tables of a verified backup, in the file's order, each with its rows in batches of `batchRows(columns)`.
 * Consume each table's batches before asking for the next table.
 */
export async function* backupTables(
  file: string,
  batchRows: (columns: number) => number,
): AsyncGenerator<{ table: TableName; batches: AsyncGenerator<Row[]> }> {
  const lines = jsonLines(file);
  const header = headerOf(file, (await lines.next()).value);
  let next = await lines.next();
  while (!next.done && isObject(next.value) && typeof next.value.table === 'string') {
    const spec = header.tables.find((t) => t.name === (next.value as { table: string }).table)!;
    const size = batchRows(spec.columns.length);
    async function* batches(): AsyncGenerator<Row[]> {
      let batch: Row[] = [];
      for (next = await lines.next(); !next.done && Array.isArray(next.value); next = await lines.next()) {
        batch.push(next.value as Row);
        if (batch.length >= size) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length) yield batch;
    }
    yield { table: spec.name, batches: batches() };
  }
}
