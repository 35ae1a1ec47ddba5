import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { hashPassword } from '../src/admin/auth/service.js';
import { usernameKey, warnUsernameCollisions } from '../src/admin/shared/username-key.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { EXIT, runAdminCli } from '../src/cli/admin-commands.js';
import type { Db } from '../src/db/index.js';
import { buildApp } from '../src/app.js';
import { ADMIN, describeEachDb, freshDb, useTestApp, login, testConfig, type TestInstance } from './helpers.js';
import { adminCall, createUser, PASSWORD, type Call } from './admin-fixtures.js';

it('a username key folds case and Unicode compatibility forms', () => {
  expect(usernameKey('Admin')).toBe('admin');
  expect(usernameKey('ADMIN')).toBe('admin');
  expect(usernameKey('ａｄｍｉｎ')).toBe('admin'); // fullwidth
  expect(usernameKey('Ａｄｍｉｎ')).toBe('admin');
  expect(usernameKey('zhang.san')).not.toBe(usernameKey('zhang_san'));
});

describeEachDb('usernames are unique regardless of case and Unicode form', (dialect) => {
  const t = useTestApp(dialect);
  let admin: Call;
  beforeAll(async () => {
    admin = await adminCall(t.app);
  });

  it('a user cannot be created as ADMIN or Admin while admin exists', async () => {
    for (const username of ['ADMIN', 'Admin', 'aDmIn']) {
      const res = await admin('POST', '/api/users', { username, password: PASSWORD });
      expect(res.statusCode, username).toBe(409);
      expect(res.json().code).toBe('CONFLICT');
    }
  });

  it('a user cannot be renamed onto another name that differs only by case', async () => {
    await createUser(admin, 'Zhang.San');
    const other = await createUser(admin, 'li.si');
    expect((await admin('POST', '/api/users', { username: 'zhang.san', password: PASSWORD })).statusCode).toBe(409);
    const res = await admin('PATCH', `/api/users/${other}`, { username: 'ZHANG.SAN' });
    expect(res.statusCode).toBe(409);
    // Changing only the case of one's own name is allowed, and the new spelling signs in like the old.
    expect((await admin('PATCH', `/api/users/${other}`, { username: 'Li.Si' })).statusCode).toBe(200);
    expect((await login(t.app, 'li.si', PASSWORD)).accessToken).toBeTruthy();
  });

  it('the recovery CLI refuses a super administrator whose name differs from an existing one only by case', async () => {
    const err: string[] = [];
    const code = await runAdminCli(['create-super-admin', 'ADMIN', '--password', 'rescue-password-1'], t.db.kysely, {
      out: () => undefined,
      err: (l) => err.push(l),
    });
    expect(code).toBe(EXIT.FAILED);
    expect(err.join('\n')).toContain('"admin"');
    expect(await t.db.kysely.selectFrom('users').select('id').where('username', '=', 'ADMIN').execute()).toEqual([]);
  });

  it('sign-in matches the same way (case and fullwidth forms)', async () => {
    for (const typed of ['ADMIN', 'Admin', 'ａｄｍｉｎ']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: typed, password: ADMIN.password },
      });
      expect(res.statusCode, typed).toBe(200);
      expect(res.json().data.user.username).toBe('admin');
    }
  });
});

describeEachDb('sign-in throttling counts every spelling of a name as one account', (dialect) => {
  const t = useTestApp(dialect, { LOGIN_MAX_FAILURES: '2' });

  it('failures as admin and ａｄｍｉｎ use up the allowance of Admin', async () => {
    const attempt = (username: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username, password: 'wrong-password' },
        remoteAddress: `10.0.0.${username.length}`,
      });
    expect((await attempt('admin')).statusCode).toBe(401);
    expect((await attempt('ａｄｍｉｎ')).statusCode).toBe(401);
    expect((await attempt('Admin')).statusCode).toBe(429);
  });
});

describeEachDb('migration 0005 reports usernames that already collide', (dialect) => {
  let db: Db;
  let t: TestInstance | undefined;
  const OTHER_PASSWORD = 'other-password-456';
  const ids = { admin: randomUUID(), Admin: randomUUID(), ADMIN: randomUUID(), solo: randomUUID() };
  beforeAll(async () => {
    db = await freshDb(dialect);
    await migrateToLatest(db, '0004-access-revision');
    const [hash, otherHash] = await Promise.all([hashPassword(PASSWORD), hashPassword(OTHER_PASSWORD)]);
    const rows = Object.entries(ids).map(([username, id], i) => ({
      id,
      username,
      nickname: '',
      password_hash: username === 'admin' ? hash : otherHash,
      status: 'enabled',
      token_version: 0,
      created_at: `2026-01-0${i + 1}T00:00:00.000Z`,
      updated_at: `2026-01-0${i + 1}T00:00:00.000Z`,
    }));
    // Written as the pre-0005 schema knew them (no username_key yet).
    await db.kysely
      .insertInto('users')
      .values(rows as never)
      .execute();
  });
  afterAll(async () => {
    if (t) await t.app.close();
    await db.close();
  });

  it('upgrades without failing: the oldest keeps the name, the younger collisions are named in the audit log and at start', async () => {
    await migrateToLatest(db);
    const keys = await db.kysely
      .selectFrom('users')
      .select(['username', 'username_key'])
      .orderBy('created_at')
      .execute();
    expect(keys).toEqual([
      { username: 'admin', username_key: 'admin' },
      { username: 'Admin', username_key: null },
      { username: 'ADMIN', username_key: null },
      { username: 'solo', username_key: 'solo' },
    ]);
    const audit = await db.kysely
      .selectFrom('audit_logs')
      .select(['action', 'target_id', 'detail'])
      .where('action', '=', 'user.username-collision')
      .orderBy('target_id')
      .execute();
    expect(audit.map((a) => a.target_id).sort()).toEqual([ids.Admin, ids.ADMIN].sort());
    expect(JSON.parse(audit[0].detail)).toMatchObject({ collidesWith: 'admin' });
    const warned: string[] = [];
    const log = { warn: (_o: unknown, msg: string) => warned.push(msg) } as unknown as Parameters<
      typeof warnUsernameCollisions
    >[1];
    expect(await warnUsernameCollisions(db.kysely, log)).toEqual(['ADMIN', 'Admin']);
    expect(warned[0]).toContain('"ADMIN"');
  });

  it('a colliding account cannot sign in until renamed, then can', async () => {
    t = { app: await buildApp({ config: testConfig(), db, logger: false }), db, close: async () => undefined };
    const tryLogin = (username: string, password = OTHER_PASSWORD) =>
      t!.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });
    const superRole = await db.kysely
      .selectFrom('roles')
      .select('id')
      .where('code', '=', 'super_admin')
      .executeTakeFirstOrThrow();
    await db.kysely.insertInto('user_roles').values({ user_id: ids.admin, role_id: superRole.id }).execute();
    // 'Admin' typing its own name and password reaches the older 'admin' account, whose password it is not.
    expect((await tryLogin('Admin')).statusCode).toBe(401);
    const call: Call = Object.assign(
      (method: InjectOptions['method'], url: string, payload?: unknown) =>
        login(t!.app, 'admin', PASSWORD).then(({ accessToken }) =>
          t!.app.inject({
            method,
            url,
            headers: { authorization: `Bearer ${accessToken}` },
            ...(payload === undefined ? {} : { payload: payload as object }),
          }),
        ),
      { app: t!.app },
    );
    expect((await call('PATCH', `/api/users/${ids.Admin}`, { username: 'admin2' })).statusCode).toBe(200);
    const res = await tryLogin('ADMIN2');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.user.id).toBe(ids.Admin);
    const left = await db.kysely.selectFrom('users').select('username').where('username_key', 'is', null).execute();
    expect(left.map((r) => r.username)).toEqual(['ADMIN']);
  });
});
