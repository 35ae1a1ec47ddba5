import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { openDatabase, type Db } from '../src/db/index.js';
import { runAdminCli } from '../src/cli/admin-commands.js';
import { ADMIN, bearer, login, testConfig } from './helpers.js';

/**
 * On SQLite the guard keeps a user's row between requests until the database changes (db/index.ts ChangeStamp).
 * A change made by another connection to the same file — `npm run admin` while the server runs, an operator's
 * sqlite3 shell — must still apply from the very next request, as it does when the server makes it itself.
 */
describe('SQLite: a change by another connection applies on the very next request', () => {
  let dir: string;
  let file: string;
  let db: Db;
  let app: FastifyInstance;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tianji-other-conn-'));
    file = path.join(dir, 'tianji.db');
    db = openDatabase(`sqlite:${file}`);
    app = await buildApp({ config: testConfig({ DATA_DIR: dir }), db, logger: false });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const me = (token: string) => app.inject({ url: '/api/auth/me', headers: bearer(token) });

  /** The recovery tool as `npm run admin` runs it: its own connection to the same file. */
  async function adminCli(...argv: string[]) {
    const other = openDatabase(`sqlite:${file}`);
    const out: string[] = [];
    try {
      const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l) };
      return { code: await runAdminCli(argv, other.kysely, io, {}), out };
    } finally {
      await other.close();
    }
  }

  it('sessions ended by `admin reset-password` from another process answer 401 at once, round after round', async () => {
    let password = ADMIN.password;
    for (let round = 0; round < 5; round++) {
      const { accessToken } = await login(app, ADMIN.username, password);
      // Twice: the second request is served from what the first one read.
      expect((await me(accessToken)).statusCode).toBe(200);
      expect((await me(accessToken)).statusCode).toBe(200);
      const next = `round-${round}-password-123`;
      const cli = await adminCli('reset-password', ADMIN.username, '--password', next);
      expect(cli.code, cli.out.join('\n')).toBe(0);
      const after = await me(accessToken);
      expect(after.statusCode).toBe(401);
      password = next;
    }
  });

  it('a user disabled in an sqlite3 shell is refused on the next request, and let back in once enabled again', async () => {
    const { accessToken } = await login(app, ADMIN.username, 'round-4-password-123');
    expect((await me(accessToken)).statusCode).toBe(200);
    expect((await me(accessToken)).statusCode).toBe(200);
    const shell = new SQLite(file);
    try {
      shell.prepare(`update users set status = 'disabled' where username = ?`).run(ADMIN.username);
      expect((await me(accessToken)).statusCode).toBe(401);
      shell.prepare(`update users set status = 'enabled' where username = ?`).run(ADMIN.username);
      expect((await me(accessToken)).statusCode).toBe(200);
    } finally {
      shell.close();
    }
  });
});
