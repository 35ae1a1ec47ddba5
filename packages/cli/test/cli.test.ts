/**
 * The `tianji` command as a user runs it: real processes against a real server (SQLite, and PostgreSQL when
 * TEST_DATABASE_URL is set), checking output, --json, exit codes and the credential files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, bearer, login } from '../../server/test/helpers.js';
import { startHarness, type CliHarness } from './cli-harness.js';
import { totpCode } from '../../server/src/admin/auth/totp.js';
import { USER_PASSWORD } from '../../server/test/auth-fixtures.js';
import { enrolledUser, wrongSecondStepCodes } from '../../server/test/totp-fixtures.js';

const ALL_ONES = '9223372036854775807';

// SQLite only: each command here is a process start, which dominates the time; the database-backed part that
// differs by dialect (refresh-token rotation under concurrency) runs on both in cli-refresh-lock.test.ts.
describe('tianji command line', () => {
  const dialect = 'sqlite' as const;
  let h: CliHarness;
  const signIn = (username: string, password: string, home?: string) =>
    h.run(['login', '--server', h.server, '--username', username, '--password-stdin'], {
      stdin: `${password}\n`,
      home,
    });
  /** Straight to the API as the administrator, for setup the CLI has no command for. */
  async function api(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) {
    const { accessToken } = await login(h.t.app);
    return h.t.app.inject({ method, url, payload: payload as object, headers: bearer(accessToken) });
  }

  /** As if the user had already replaced the operator's password (the server's must-change-password suite covers it). */
  const settled = (username: string) =>
    h.t.db.kysely.updateTable('users').set({ must_change_password: 0 }).where('username', '=', username).execute();

  beforeAll(async () => {
    h = await startHarness(dialect);
  });
  afterAll(() => h?.close());

  it('before login: commands exit 4 and say how to sign in', async () => {
    const r = await h.run(['whoami'], { home: h.home() });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('tianji login');
  });

  it('login with --password-stdin, then whoami shows identity, roles and the all-ones mask exactly', async () => {
    const r = await signIn(ADMIN.username, ADMIN.password);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('已登录');
    const who = await h.run(['whoami']);
    expect(who.code, who.stderr).toBe(0);
    expect(who.stdout).toMatch(/用户名\s+admin/);
    expect(who.stdout).toContain('super_admin');
    expect(who.stdout).toMatch(new RegExp(`权限掩码\\s+${ALL_ONES}`));
    const json = await h.run(['whoami', '--json']);
    expect(json.stdout).toContain(`"permissions": ${ALL_ONES}`);
    expect(JSON.parse(json.stdout)).toMatchObject({ username: 'admin', roles: [{ code: 'super_admin' }] });
  });

  it('credentials are private: folder 0700, files 0600', async () => {
    const dir = path.join(h.home().replace(/home-\d+$/, 'home'), 'tianji');
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dir, 'credentials')).mode & 0o777).toBe(0o700);
    for (const f of ['profiles.json', 'credentials/default', 'credentials/default.access']) {
      expect(fs.statSync(path.join(dir, f)).mode & 0o777, f).toBe(0o600);
    }
  });

  // A dozen CLI processes in a row: ~6 s here, past 30 s on a machine with load 20 (busy run of 2026-12-02).
  it('users create, get, disable (sign-in refused), enable, reset-password, roles', { timeout: 180_000 }, async () => {
    const created = await h.run(['users', 'create', 'carol', '--nickname', '小卡', '--password-stdin', '--json'], {
      stdin: 'carol-password-1\n',
    });
    expect(created.code, created.stderr).toBe(0);
    const carol = JSON.parse(created.stdout) as { id: string; username: string; status: string };
    expect(carol).toMatchObject({ username: 'carol', status: 'enabled' });

    const got = await h.run(['users', 'get', 'carol']);
    expect(got.stdout).toMatch(/昵称\s+小卡/);
    expect(got.stdout).toContain(carol.id);
    expect((await h.run(['users', 'get', carol.id, '--json'])).stdout).toContain('"username": "carol"');

    const list = await h.run(['users', 'list']);
    expect(list.stdout).toMatch(/carol\s+小卡\s+启用/);
    expect(list.stdout).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);

    expect((await h.run(['users', 'disable', 'carol'])).stdout).toMatch(/状态\s+停用/);
    const refused = await signIn('carol', 'carol-password-1', h.home());
    expect(refused.code).not.toBe(0);
    expect((await h.run(['users', 'enable', 'carol'])).stdout).toMatch(/状态\s+启用/);

    const reset = await h.run(['users', 'reset-password', 'carol', '--password-stdin'], {
      stdin: 'carol-password-2\n',
    });
    expect(reset.code, reset.stderr).toBe(0);
    expect((await signIn('carol', 'carol-password-1', h.home())).code).toBe(4);
    expect((await signIn('carol', 'carol-password-2', h.home())).code).toBe(0);
    // Not one's own: that takes the current password (tianji password), never a token alone.
    const own = await h.run(['users', 'reset-password', ADMIN.username, '--password-stdin'], {
      stdin: 'admin-password-2\n',
    });
    expect(own.code).not.toBe(0);
    expect(own.stderr).toContain('tianji password');
    expect((await signIn(ADMIN.username, ADMIN.password, h.home())).code).toBe(0);

    const roles = await h.run(['users', 'roles', 'carol', 'super_admin', '--json']);
    expect(roles.code, roles.stderr).toBe(0);
    expect(JSON.parse(roles.stdout).roles.map((r: { code: string }) => r.code)).toEqual(['super_admin']);
    expect((await h.run(['users', 'roles', 'carol'])).stdout).toContain('super_admin');
    expect((await h.run(['users', 'roles', 'carol', '--none', '--json'])).stdout).toContain('"roles": []');
  });

  it('users unlock lets a locked-out user sign in again; users reset-totp removes their two-step sign-in', async () => {
    const created = await h.run(['users', 'create', 'dave', '--password-stdin', '--json'], {
      stdin: 'dave-password-1\n',
    });
    expect(created.code, created.stderr).toBe(0);
    await settled('dave');
    const attempt = (password: string) =>
      h.t.app
        .inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: 'dave', password },
          remoteAddress: '192.0.2.99',
        })
        .then((r) => r.statusCode);
    let status = 0;
    for (let i = 0; i < 20 && status !== 429; i++) status = await attempt('wrong-password-0');
    expect(status).toBe(429);
    const unlocked = await h.run(['users', 'unlock', 'dave']);
    expect(unlocked.code, unlocked.stderr).toBe(0);
    expect(unlocked.stdout).toMatch(/已解锁 dave（清除 \d+ 条登录失败记录）/);
    expect(await attempt('dave-password-1')).toBe(200);

    await h.t.db.kysely
      .updateTable('users')
      .set({ totp_secret: 'JBSWY3DPEHPK3PXP', totp_enabled_at: new Date().toISOString() })
      .where('username', '=', 'dave')
      .execute();
    expect((await h.run(['users', 'get', 'dave'])).stdout).toMatch(/两步验证\s+已开启/);
    const reset = await h.run(['users', 'reset-totp', 'dave', '--json']);
    expect(reset.code, reset.stderr).toBe(0);
    expect(JSON.parse(reset.stdout)).toMatchObject({ username: 'dave', totpReset: true });
    expect((await h.run(['users', 'get', 'dave'])).stdout).toMatch(/两步验证\s+未开启/);
    const again = await h.run(['users', 'reset-totp', 'dave']);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('没有启用两步验证');
    const own = await h.run(['users', 'reset-totp', ADMIN.username]);
    expect(own.code).not.toBe(0);
    expect(own.stderr).toContain('个人资料');
  });

  it('roles list and grant; the grantee sees the granted bits in menus tree, and a missing bit is 无权限 (exit 3)', async () => {
    const role = (await api('POST', '/api/roles', { code: 'viewer', name: '查看员' })).json().data as { id: string };
    await h.run(['users', 'create', 'dave', '--password-stdin'], { stdin: 'dave-password-1' });
    await settled('dave');
    expect((await h.run(['users', 'roles', 'dave', 'viewer'])).code).toBe(0);
    expect((await h.run(['roles', 'list'])).stdout).toMatch(/viewer\s+查看员/);

    const granted = await h.run(['roles', 'grant', 'viewer', 'system:user', '0']);
    expect(granted.code, granted.stderr).toBe(0);
    expect(granted.stdout).toContain('仅可见');

    const dave = h.home();
    expect((await signIn('dave', 'dave-password-1', dave)).code).toBe(0);
    expect((await h.run(['menus', 'tree'], { home: dave })).stdout).toMatch(
      /用户管理\s+system:user\s+\S+\s+\[仅可见\]/,
    );
    const denied = await h.run(['users', 'list'], { home: dave });
    expect(denied.code).toBe(3);
    expect(denied.stderr).toContain('无权限');

    expect((await h.run(['roles', 'grant', 'viewer', 'system:user', 'SEARCH,EXPORT'])).code).toBe(0);
    const detail = (await api('GET', `/api/roles/${role.id}`)).json().data as {
      grants: Array<{ menuCode: string; bits: number }>;
    };
    expect(detail.grants).toEqual([expect.objectContaining({ menuCode: 'system:user', bits: 1 | 512 })]);
    expect((await h.run(['menus', 'tree'], { home: dave })).stdout).toMatch(
      /用户管理\s+system:user\s+\S+\s+\[SEARCH,EXPORT\]/,
    );
    expect((await h.run(['users', 'list'], { home: dave })).code).toBe(0);
    // Above one's own masks: the server's escalation reason, exit 3.
    const escalate = await h.run(['users', 'roles', 'dave', 'super_admin'], { home: dave });
    expect(escalate.code).toBe(3);
    expect(escalate.stderr).toMatch(/无权限.*\((FORBIDDEN|PRIVILEGE_ESCALATION)\)/);
  });

  it('session ended on the server (password reset by an administrator): exit 4 with the server’s reason', async () => {
    await h.run(['users', 'create', 'erin', '--password-stdin'], { stdin: 'erin-password-1' });
    await settled('erin');
    const erin = h.home();
    expect((await signIn('erin', 'erin-password-1', erin)).code).toBe(0);
    await h.run(['users', 'reset-password', 'erin', '--password-stdin'], { stdin: 'erin-password-2' });
    const r = await h.run(['whoami'], { home: erin });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/会话已结束：.+\([A-Z_]+\)/);
  });

  it('content export then import round-trips a library (CSV file)', async () => {
    const file = path.join(h.home(), 'xiehouyu.csv');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const exported = await h.run(['content', 'export', 'xiehouyu', file]);
    expect(exported.code, exported.stderr).toBe(0);
    const before = JSON.parse((await api('GET', '/api/admin/content/xiehouyu/export?format=json')).body) as Array<{
      id: string;
      riddle: string;
    }>;
    expect(before.length).toBeGreaterThan(0);
    await api('POST', '/api/admin/content/xiehouyu/batch-delete', { ids: before.map((i) => i.id) });

    const imported = await h.run(['content', 'import', 'xiehouyu', file, '--json']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toEqual({ library: 'xiehouyu', imported: before.length });
    const after = JSON.parse((await api('GET', '/api/admin/content/xiehouyu/export?format=json')).body) as Array<{
      riddle: string;
    }>;
    expect(after.map((i) => i.riddle).sort()).toEqual(before.map((i) => i.riddle).sort());
    // Importing the same rows again is refused as duplicates: nothing imported, a server error exit.
    expect((await h.run(['content', 'import', 'xiehouyu', file])).code).toBe(5);
    const listed = await h.run(['content', 'list', 'xiehouyu', '--json']);
    expect(JSON.parse(listed.stdout).total).toBe(before.length);
  });

  it('audit list shows what the commands did, with Beijing dates', async () => {
    const r = await h.run(['audit', 'list', '--action', 'user.create']);
    expect(r.code, r.stderr).toBe(0);
    // The action and the target by name, as the desktop audit page shows them: no codes, no bare ids.
    expect(r.stdout).toMatch(/^时间\s+操作人\s+动作\s+对象\s+IP$/m);
    expect(r.stdout).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}\s+admin\s+新增用户\s+用户 \S+/);
    expect(r.stdout).not.toContain('user.create');
    const rows = JSON.parse((await h.run(['audit', 'list', '--action', 'user.create', '--json'])).stdout)
      .items as Array<{
      targetId: string;
      targetName: string;
    }>;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(r.stdout).toContain(`用户 ${row.targetName}`);
      expect(r.stdout).not.toContain(row.targetId);
    }
    const en = await h.run(['audit', 'list', '--action', 'user.create'], { env: { LANG: 'en_US.UTF-8' } });
    expect(en.stdout).toMatch(/^Time\s+By\s+Action\s+Target\s+IP$/m);
    expect(en.stdout).toMatch(/\s+admin\s+Add user\s+User \S+/);
    expect(en.stdout).toMatch(/^Page 1, \d+ in all$/m);
  });

  it('usage errors exit 2 and name what is allowed', async () => {
    const unknown = await h.run(['users', 'frobnicate']);
    expect(unknown.code).toBe(2);
    const page = await h.run(['users', 'list', '--page', 'zero']);
    expect(page.code).toBe(2);
    expect(page.stderr).toContain('--page');
    const lib = await h.run(['content', 'list', 'nope']);
    expect(lib.code).toBe(2);
    expect(lib.stderr).toContain('hitokoto');
    const bits = await h.run(['roles', 'grant', 'viewer', 'system:user', 'FLY']);
    expect(bits.code).toBe(2);
    expect(bits.stderr).toContain('SEARCH');
  });

  it('profiles: a second server under --profile, listed with the current one marked', async () => {
    const home = h.home();
    expect((await signIn(ADMIN.username, ADMIN.password, home)).code).toBe(0);
    const second = await h.run(
      ['login', '--profile', 'staging', '--server', h.server, '--username', 'carol', '--password-stdin'],
      { stdin: 'carol-password-2', home },
    );
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse((await h.run(['whoami', '--json', '--profile', 'staging'], { home })).stdout).username).toBe(
      'carol',
    );
    expect(JSON.parse((await h.run(['whoami', '--json'], { home })).stdout).username).toBe('admin');
    const list = await h.run(['profiles', 'list', '--json'], { home });
    expect(JSON.parse(list.stdout)).toEqual([
      expect.objectContaining({ name: 'default', current: true, signedIn: true }),
      expect.objectContaining({ name: 'staging', current: false, username: 'carol' }),
    ]);
  });

  it('logout revokes the session on the server and removes the credentials', async () => {
    const home = h.home();
    await signIn(ADMIN.username, ADMIN.password, home);
    const token = fs.readFileSync(path.join(home, 'tianji', 'credentials', 'default'), 'utf8');
    const out = await h.run(['logout'], { home });
    expect(out.code, out.stderr).toBe(0);
    expect(fs.existsSync(path.join(home, 'tianji', 'credentials', 'default'))).toBe(false);
    expect(
      (await h.t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: token } })).statusCode,
    ).toBe(401);
    expect((await h.run(['whoami'], { home })).code).toBe(4);
  });

  // Routes the sessions work adds (sessions, force sign-out, login log): each test skips itself while the server
  // under test lacks the route, and runs as soon as it has it.
  const hasRoute = (key: string) => h.routes.has(key);

  it('sessions list shows this CLI session; ending it signs this CLI out with the server’s reason', async (ctx) => {
    if (!hasRoute('GET /api/auth/sessions') || !hasRoute('DELETE /api/auth/sessions/:id')) return ctx.skip();
    await h.run(['users', 'create', 'gina', '--password-stdin'], { stdin: 'gina-password-1' });
    await settled('gina');
    const home = h.home();
    expect((await signIn('gina', 'gina-password-1', home)).code).toBe(0);
    const listed = await h.run(['sessions', 'list', '--json'], { home });
    expect(listed.code, listed.stderr).toBe(0);
    const data = JSON.parse(listed.stdout) as Array<{ id: string }> | { items: Array<{ id: string }> };
    const items = Array.isArray(data) ? data : data.items;
    expect(items.length).toBeGreaterThan(0);
    // Ends every session of gina, the one this CLI holds included (the last call may already report it ended).
    for (const item of items) await h.run(['sessions', 'end', item.id], { home });
    const after = await h.run(['whoami'], { home });
    expect(after.code).toBe(4);
    expect(after.stderr).toMatch(/SESSION_ENDED|FORCED_LOGOUT/);
  });

  it('users force-logout signs that user out: their next command exits 4 with FORCED_LOGOUT', async (ctx) => {
    if (!hasRoute('POST /api/users/:id/force-logout')) return ctx.skip();
    await h.run(['users', 'create', 'frank', '--password-stdin'], { stdin: 'frank-password-1' });
    await settled('frank');
    const frank = h.home();
    expect((await signIn('frank', 'frank-password-1', frank)).code).toBe(0);
    const forced = await h.run(['users', 'force-logout', 'frank']);
    expect(forced.code, forced.stderr).toBe(0);
    const r = await h.run(['whoami'], { home: frank });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('FORCED_LOGOUT');
  });

  it('login-log list shows the CLI sign-ins with Beijing dates', async (ctx) => {
    if (!hasRoute('GET /api/login-logs')) return ctx.skip();
    const r = await h.run(['login-log', 'list']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('admin');
    expect(r.stdout).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    expect(JSON.parse((await h.run(['login-log', 'list', '--json'])).stdout).total).toBeGreaterThan(0);
  });

  it('login warns when the password must be changed, and asks for the TOTP code (--totp) when the account has one', async () => {
    const home = h.home();
    const initial = 'operator-chosen-password-1';
    const own = 'cli-chosen-quiet-harbour-58';
    expect((await api('POST', '/api/users', { username: 'cli_totp', password: initial })).statusCode).toBe(201);
    const first = await signIn('cli_totp', initial, home);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('必须先修改密码');
    expect(first.stderr).toContain('tianji password');

    // Through the API as that user: pick a password, enrol TOTP.
    const s = (await login(h.t.app, 'cli_totp', initial)).accessToken;
    const changed = await h.t.app.inject({
      method: 'PUT',
      url: '/api/auth/password',
      headers: bearer(s),
      payload: { oldPassword: initial, newPassword: own },
    });
    const token = changed.json().data.accessToken;
    const as = (url: string, payload?: object) =>
      h.t.app.inject({ method: 'POST', url, headers: bearer(token), ...(payload && { payload }) });
    const { secret } = (await as('/api/auth/totp/setup')).json().data;
    expect((await as('/api/auth/totp/enable', { code: totpCode(secret, Date.now()) })).statusCode).toBe(200);

    const missing = await signIn('cli_totp', own, home);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('--totp');
    const ok = await h.run(
      [
        'login',
        '--server',
        h.server,
        '--username',
        'cli_totp',
        '--password-stdin',
        '--totp',
        totpCode(secret, Date.now() + 30_000),
      ],
      { stdin: `${own}\n`, home },
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('已登录');
    expect(ok.stderr).not.toContain('必须先修改密码');
  });

  it('login after wrong second-step codes prints the server’s security notice once, pointing at tianji sessions list', async () => {
    const u = await enrolledUser(h.t.app, h.t.db, 'cli_notice');
    const home = h.home();
    const totpLogin = (code: string, json = false) =>
      h.run(
        [
          'login',
          '--server',
          h.server,
          '--username',
          u.username,
          '--password-stdin',
          '--totp',
          code,
          ...(json ? ['--json'] : []),
        ],
        { stdin: `${USER_PASSWORD}\n`, home },
      );
    await wrongSecondStepCodes(h.t.app, u.username, 2);
    const told = await totpLogin(totpCode(u.secret, Date.now()));
    expect(told.code, told.stderr).toBe(0);
    expect(told.stdout).toContain('已登录');
    expect(told.stderr).toMatch(/^安全提醒：自上次登录以来，你的账号有 2 次两步验证码输入错误。.*请立即修改密码。$/m);
    expect(told.stderr).toContain('tianji sessions list');

    await wrongSecondStepCodes(h.t.app, u.username, 1);
    const json = await totpLogin(totpCode(u.secret, Date.now() + 30_000), true);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout).securityNotice).toMatch(/^自上次登录以来，你的账号有 1 次两步验证码输入错误/);

    // Said once: the next sign-in, with no wrong code since, carries none.
    const quiet = await totpLogin(u.recoveryCodes[0], true);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(JSON.parse(quiet.stdout)).not.toHaveProperty('securityNotice');
    expect(quiet.stderr).not.toContain('安全提醒');
    // That sign-in used a recovery code: how many are left, in --json and for people.
    expect(JSON.parse(quiet.stdout).recoveryCodesLeft).toBe(9);
    const again = await totpLogin(u.recoveryCodes[1]);
    expect(again.stderr).toContain('已使用恢复码登录，还剩 8 个恢复码；生成新的一组：tianji totp recovery-codes');
    expect(told.stderr).not.toContain('恢复码');
  });
});
