import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { recordAudit } from '../src/admin/audit/recorder.js';
import { MENUS } from '../src/catalogue/index.js';
import { totpCode } from '../src/admin/auth/totp.js';
import { EXIT, type CliIo } from '../src/cli/admin-commands.js';
import {
  backupDatabase,
  copyDatabase,
  isDatabaseCommand,
  restoreDatabase,
  runDatabaseCli,
} from '../src/cli/database-commands.js';
import { openDatabase, type Db, type Dialect } from '../src/db/index.js';
import { MIGRATION_NAMES, migrateToLatest } from '../src/db/migrate.js';
import { appliedMigrations, checkTables, rowsFound, type Row } from '../src/db/transfer.js';
import { adminCall, PASSWORD, userWithGrants } from './admin-fixtures.js';
import { USER_PASSWORD } from './auth-fixtures.js';
import { bearer, describeEachDb, dialects, freshDb, login, testConfig, useTestApp } from './helpers.js';
import { enrolledUser } from './totp-fixtures.js';

const ADMIN_TS = fileURLToPath(new URL('../src/cli/admin.ts', import.meta.url));
const dir = mkdtempSync(path.join(os.tmpdir(), 'tianji-copy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a command printed. */
function captured() {
  const out: string[] = [];
  const io: CliIo = { out: (l) => out.push(l), err: (l) => out.push(l) };
  return { io, text: () => out.join('\n') };
}

/** A database that stays empty until a test has written to it: nothing migrated, no table. */
async function untouched(db: Db) {
  expect(await appliedMigrations(db)).toEqual([]);
  expect(await rowsFound(db)).toBeUndefined();
}

/** Copies of a whole installation (about 20,000 content rows) on a busy machine: generous. */
const SLOW = { timeout: 240_000 };

const futureMigration = (db: Db) =>
  sql`insert into kysely_migration (name, timestamp) values ('9999-from-the-future', '2099-01-01')`.execute(db.kysely);

describeEachDb('copy-database, backup and restore', (source) => {
  // The other dialect when there is one: SQLite → PostgreSQL and PostgreSQL → SQLite.
  const other: Dialect = source === 'postgres' ? 'sqlite' : dialects.includes('postgres') ? 'postgres' : 'sqlite';
  const t = useTestApp(source);
  let totpUser: Awaited<ReturnType<typeof enrolledUser>>;
  let apiKey: string;
  let jokeId: string;
  let oldToken: string;

  // An installation in use: a user with a role and grants, one with TOTP, an API key with limits and usage today,
  // an edited joke, failed and successful sign-ins and the audit trail of all of it.
  beforeAll(async () => {
    const admin = await adminCall(t.app);
    oldToken = (await login(t.app)).accessToken;
    await userWithGrants(t.app, admin, 'reader52', { [MENUS.users.code]: 1 });
    totpUser = await enrolledUser(t.app, t.db, 'totp52');
    const key = await admin('POST', '/api/admin/api-keys', { name: 'partner', perMinute: 100, perDay: 1000 });
    apiKey = key.json().data.secret;
    for (let i = 0; i < 3; i++)
      expect((await t.app.inject({ url: '/api/mood-quote', headers: { 'x-api-key': apiKey } })).statusCode).toBe(200);
    await t.app.usage.flush();
    jokeId = (await admin('POST', '/api/admin/content/jokes', { content: '搬家前的笑话' })).json().data.id;
    expect((await admin('PUT', `/api/admin/content/jokes/${jokeId}`, { content: '搬家后也在的笑话' })).statusCode).toBe(
      200,
    );
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'reader52', password: 'wrong-password-1' },
    });
  }, SLOW.timeout);

  /** The target as an app of its own (another JWT secret, as a new installation has) and what works there. */
  async function expectWorking(target: Db) {
    const app = await buildApp({ config: testConfig(), db: target, logger: false });
    await app.ready();
    try {
      // Tokens are signed with the installation's own secret: every device signs in again.
      expect((await app.inject({ url: '/api/auth/me', headers: bearer(oldToken) })).statusCode).toBe(401);
      await login(app);
      const reader = await login(app, 'reader52', PASSWORD);
      expect((await app.inject({ url: '/api/users', headers: bearer(reader.accessToken) })).statusCode).toBe(200);
      expect((await app.inject({ url: '/api/roles', headers: bearer(reader.accessToken) })).statusCode).toBe(403);
      const mfa = async () =>
        (
          await app.inject({
            method: 'POST',
            url: '/api/auth/login',
            payload: { username: 'totp52', password: USER_PASSWORD },
          })
        ).json().data.mfaToken;
      const totp = (mfaToken: string, code: string) =>
        app.inject({ method: 'POST', url: '/api/auth/login/totp', payload: { mfaToken, code } });
      expect((await totp(await mfa(), totpCode(totpUser.secret, Date.now() + 30_000))).statusCode).toBe(200);
      expect((await totp(await mfa(), totpUser.recoveryCodes[0])).statusCode).toBe(200);
      expect((await totp(await mfa(), totpUser.recoveryCodes[0])).statusCode).toBe(401);
      expect((await app.inject({ url: '/api/mood-quote', headers: { 'x-api-key': apiKey } })).statusCode).toBe(200);
      expect((await app.inject({ url: '/api/mood-quote', headers: { 'x-api-key': `${apiKey}x` } })).statusCode).toBe(
        401,
      );
      const admin = await adminCall(app);
      const key = (await admin('GET', '/api/admin/api-keys')).json().data.items[0];
      expect(key).toMatchObject({ perMinute: 100, perDay: 1000 });
      const jokes = (await admin('GET', '/api/admin/content/jokes/export?format=json')).body;
      expect(JSON.parse(jokes)).toContainEqual(expect.objectContaining({ id: jokeId, content: '搬家后也在的笑话' }));
    } finally {
      await app.close();
    }
  }

  it(
    `copies every table into an empty ${other} database: counts and checksums agree, and the installation works there`,
    SLOW,
    async () => {
      const target = await freshDb(other);
      try {
        const run = captured();
        expect(await copyDatabase(t.db, target, run.io), run.text()).toBe(EXIT.OK);
        expect(run.text()).toMatch(/audit_logs +\d+ \/ \d+ 行 +[\d,]+ 行\/秒/);
        expect(run.text()).toMatch(/全部 \d+ 张表一致。/);
        const [from, to] = [await checkTables(t.db), await checkTables(target)];
        expect(to).toEqual(from);
        expect(from.find((c) => c.table === 'audit_logs')!.rows).toBeGreaterThan(3);
        expect(from.find((c) => c.table === 'mfa_recovery_codes')!.rows).toBe(10);
        // The super administrator's grant: all ones (-1), exact on both sides.
        const bits = await sql<{ b: string }>`select cast(min(bits) as text) as b from role_menus`.execute(
          target.kysely,
        );
        expect(bits.rows[0].b).toBe('-1');
        await expectWorking(target);

        const again = captured();
        await expect(copyDatabase(t.db, target, again.io)).rejects.toThrow(
          /目标数据库不是空的，里面有：users \d+ 行、roles \d+ 行.*加 --replace/,
        );
      } finally {
        await target.close();
      }
    },
  );

  it('a copy that loses a row fails the check and names the table', SLOW, async () => {
    const target = await freshDb(other);
    try {
      const run = captured();
      const tamper = (table: string, rows: Row[]) => (table === 'audit_logs' ? rows.slice(1) : rows);
      const code = await copyDatabase(t.db, target, run.io, { tamper });
      expect(code).toBe(EXIT.FAILED);
      expect(run.text()).toMatch(/audit_logs +\d+ +\d+ +\w+ +\w+ +不一致/);
      expect(run.text()).toContain('不一致：audit_logs。不要使用这份目标');
    } finally {
      await target.close();
    }
  });

  it('copies one consistent snapshot while another connection writes to the source', SLOW, async () => {
    // SQLite: a file (an in-memory database has one connection), written by a second connection; PostgreSQL: the
    // app's pool, another connection than the copy's read transaction.
    const file = path.join(dir, `${source}-live.db`);
    if (source === 'sqlite') writeFileSync(file, t.db.snapshot!());
    const live = source === 'sqlite' ? openDatabase(`sqlite:${file}`) : t.db;
    const writer = source === 'sqlite' ? openDatabase(`sqlite:${file}`) : t.db;
    const target = await freshDb(other);
    try {
      const audit = async (db: Db) => (await checkTables(db)).find((c) => c.table === 'audit_logs')!;
      const before = await audit(live);
      const run = captured();
      let wrote = false;
      const tamper = async (table: string, rows: Row[]) => {
        if (table === 'users' && !wrote) {
          wrote = true;
          await recordAudit(writer.kysely, {
            actorId: null,
            actorUsername: '(test)',
            ip: 'local',
            action: 'cli.unlock',
            targetType: 'user',
            targetId: null,
          });
        }
        return rows;
      };
      expect(await copyDatabase(live, target, run.io, { tamper }), run.text()).toBe(EXIT.OK);
      expect(wrote).toBe(true);
      expect(await audit(target)).toEqual(before);
      expect((await audit(live)).rows).toBe(before.rows + 1);
      if (source === 'sqlite') expect(run.text()).toContain('注意：复制期间有别的进程写了源数据库');
    } finally {
      await target.close();
      if (source === 'sqlite') await Promise.all([live.close(), writer.close()]);
    }
  });

  it(
    'backup writes one file that restores into an empty database of either kind; restore refuses a non-empty one',
    SLOW,
    async () => {
      const file = path.join(dir, `${source}.tianji-backup.gz`);
      const run = captured();
      expect(await backupDatabase(t.db, file, run.io), run.text()).toBe(EXIT.OK);
      expect(run.text()).toMatch(/全部 \d+ 张表一致。/);
      expect(existsSync(`${file}.partial`)).toBe(false);
      await expect(backupDatabase(t.db, file, captured().io)).rejects.toThrow(/已经存在.*--replace/);
      const expected = await checkTables(t.db);
      for (const kind of new Set<Dialect>([source, other])) {
        const target = await freshDb(kind);
        try {
          const restore = captured();
          expect(await restoreDatabase(target, file, restore.io), restore.text()).toBe(EXIT.OK);
          expect(await checkTables(target)).toEqual(expected);
          await expect(restoreDatabase(target, file, captured().io)).rejects.toThrow(/数据库不是空的，里面有：users/);
          const replaced = captured();
          expect(await restoreDatabase(target, file, replaced.io, { replace: true })).toBe(EXIT.OK);
          expect(replaced.text()).toContain('已清空数据库原有的数据（--replace）');
          await expectWorking(target);
        } finally {
          await target.close();
        }
      }
    },
  );

  it(
    'refuses, in Chinese and before writing anything: an unreachable target, a target or source of another version, a file that is no backup',
    SLOW,
    async () => {
      const unreachable = openDatabase('postgres://tianji:secret-pw@127.0.0.1:1/tianji');
      try {
        await expect(copyDatabase(t.db, unreachable, captured().io)).rejects.toThrow(/连不上目标数据库：连接被拒绝/);
      } finally {
        await unreachable.close();
      }

      const newer = await freshDb(other);
      const before = await appliedMigrations(t.db);
      try {
        await migrateToLatest(newer);
        await futureMigration(newer);
        await expect(copyDatabase(t.db, newer, captured().io)).rejects.toThrow(
          /目标数据库的结构版本比这个版本的天机新（.*9999-from-the-future/,
        );
        expect(await rowsFound(newer)).toBeUndefined();
      } finally {
        await newer.close();
      }

      const target = await freshDb(other);
      const future = await freshDb(source);
      const older = await freshDb(source);
      try {
        await migrateToLatest(future);
        await futureMigration(future);
        await expect(copyDatabase(future, target, captured().io)).rejects.toThrow(
          /源数据库的结构版本比这个版本的天机新/,
        );
        await migrateToLatest(older, MIGRATION_NAMES[MIGRATION_NAMES.length - 2]);
        await expect(copyDatabase(older, target, captured().io)).rejects.toThrow(
          /源数据库的结构版本比这个版本的天机旧（缺迁移/,
        );

        const notGzip = path.join(dir, 'notes.txt');
        writeFileSync(notGzip, 'hello\n');
        await expect(restoreDatabase(target, notGzip, captured().io)).rejects.toThrow(/不是天机的备份文件（不是 gzip/);
        const otherJson = path.join(dir, 'other.gz');
        writeFileSync(otherJson, gzipSync('{"hello":"world"}\n'));
        await expect(restoreDatabase(target, otherJson, captured().io)).rejects.toThrow(/不是天机的备份文件（第一行/);

        const good = path.join(dir, `${source}-cut.gz`);
        expect(await backupDatabase(t.db, good, captured().io)).toBe(EXIT.OK);
        const lines = gunzipSync(readFileSync(good)).toString().trimEnd().split('\n');
        const cut = path.join(dir, 'cut.gz');
        writeFileSync(cut, gzipSync(`${lines.slice(0, -1).join('\n')}\n`));
        await expect(restoreDatabase(target, cut, captured().io)).rejects.toThrow(/不完整：没有结尾行/);
        writeFileSync(cut, readFileSync(good).subarray(0, 2000));
        await expect(restoreDatabase(target, cut, captured().io)).rejects.toThrow(/已损坏或不完整/);
        const edited = lines.map((l) => l.replace('搬家后也在的笑话', '改过的笑话'));
        writeFileSync(cut, gzipSync(`${edited.join('\n')}\n`));
        await expect(restoreDatabase(target, cut, captured().io)).rejects.toThrow(/表 content_items .*校验和不符/);
        await untouched(target);
      } finally {
        for (const db of [target, future, older]) await db.close();
      }
      expect(await appliedMigrations(t.db)).toEqual(before);
    },
  );
});

describe('copy-database, backup and restore on the command line', () => {
  it('--help prints the usage and creates no database', SLOW, () => {
    const dataDir = path.join(dir, 'never-created');
    const res = spawnSync(process.execPath, ['--import', 'tsx', ADMIN_TS, 'copy-database', '--help'], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir },
      encoding: 'utf8',
    });
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toContain('copy-database --to <postgres://… | sqlite:file>');
    expect(existsSync(dataDir)).toBe(false);
  });

  it('routes by the command word, not by a username that happens to be "backup"', () => {
    expect(isDatabaseCommand(['--replace', 'restore', 'tianji.gz'])).toBe(true);
    expect(isDatabaseCommand(['--to', 'sqlite:x.db', 'copy-database'])).toBe(true);
    expect(isDatabaseCommand(['reset-password', 'backup'])).toBe(false);
    expect(isDatabaseCommand(['--password', 'restore', 'create-super-admin', 'x'])).toBe(false);
  });

  it('says what is wrong with the arguments, a missing source and an unreachable target, without a password', async () => {
    const run = captured();
    const missing = `sqlite:${path.join(dir, 'nothing-here.db')}`;
    expect(await runDatabaseCli(['copy-database'], missing, run.io)).toBe(EXIT.USAGE);
    expect(run.text()).toContain('参数无效：copy-database 需要 --to');
    expect(await runDatabaseCli(['copy-database', '--to', 'mysql://x'], missing, run.io)).toBe(EXIT.FAILED);
    expect(run.text()).toContain('参数 --to 无效：mysql://x；应为 postgres://… 或 sqlite:<文件路径>');
    expect(await runDatabaseCli(['backup', path.join(dir, 'b.gz')], missing, run.io)).toBe(EXIT.FAILED);
    expect(run.text()).toMatch(/错误：源数据库 .*nothing-here\.db 不存在/);
    expect(existsSync(path.join(dir, 'nothing-here.db'))).toBe(false);

    const file = path.join(dir, 'source.db');
    const db = openDatabase(`sqlite:${file}`);
    await migrateToLatest(db);
    await db.close();
    const refused = captured();
    const to = 'postgres://tianji:secret-pw@127.0.0.1:1/tianji';
    expect(await runDatabaseCli(['copy-database', '--to', to], `sqlite:${file}`, refused.io)).toBe(EXIT.FAILED);
    expect(refused.text()).toBe(
      '错误：连不上目标数据库（postgres://tianji:***@127.0.0.1:1/tianji）：连接被拒绝（地址或端口不对，或 PostgreSQL 没有运行）',
    );
  });
});
