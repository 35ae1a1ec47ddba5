import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { openDatabase } from '../src/db/index.js';
import { ensurePrivateDir } from '../src/private-files.js';
import { testConfig } from './helpers.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tianji-perm-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const modeOf = (p: string) => (fs.statSync(p).mode & 0o777).toString(8);

it('a new data folder is created 0700 and the SQLite files 0600 (WAL and shared memory included)', async () => {
  const dataDir = path.join(root, 'fresh', 'data');
  const app = await buildApp({
    config: testConfig({ DATA_DIR: dataDir, JWT_SECRET: '' }),
    persistSecret: true,
    logger: false,
  });
  await app.ready();
  await sql`select count(*) from users`.execute(app.db.kysely);
  const files = fs.readdirSync(dataDir);
  expect(files).toEqual(expect.arrayContaining(['tianji.db', 'tianji.db-wal', 'tianji.db-shm', 'jwt-secret']));
  expect(modeOf(dataDir)).toBe('700');
  for (const f of files) expect([f, modeOf(path.join(dataDir, f))]).toEqual([f, '600']);
  await app.close();
});

it('SQLite files and the data folder left open by an older install are tightened', async () => {
  const dataDir = path.join(root, 'old');
  fs.mkdirSync(dataDir, { mode: 0o755 });
  fs.chmodSync(dataDir, 0o755);
  const file = path.join(dataDir, 'tianji.db');
  const first = openDatabase(`sqlite:${file}`);
  await sql`create table t (x integer)`.execute(first.kysely);
  await first.close();
  fs.chmodSync(file, 0o644);
  const again = openDatabase(`sqlite:${file}`);
  await sql`select 1`.execute(again.kysely);
  expect(modeOf(file)).toBe('600');
  await again.close();
  ensurePrivateDir(dataDir, { tighten: true });
  expect(modeOf(dataDir)).toBe('700');
});
