import fs from 'node:fs';

/**
 * The data folder and the SQLite files hold password hashes, refresh-token hashes and the JWT secret: readable by
 * their owner only. Created that way, and tightened when found more open (installs from before this rule).
 */

/** Creates `dir` (and missing parents) with mode 0700; with `tighten`, an existing `dir` is also set to 0700. */
export function ensurePrivateDir(dir: string, opts: { tighten?: boolean } = {}): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (opts.tighten) tighten(dir, 0o700);
}

/**
 * Prepares a SQLite database file before it is opened: created empty with mode 0600 when missing, otherwise set to
 * 0600 — along with its -wal and -shm files, which SQLite creates with the database file's own mode.
 */
export function ensurePrivateSqliteFile(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) tighten(f, 0o600);
}

function tighten(file: string, mode: number) {
  try {
    if ((fs.statSync(file).mode & 0o777) !== mode) fs.chmodSync(file, mode);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}
