/**
 * The CLI speaks like the apps: what a wrong password, a refused connection, another user's session or a script
 * reading --json is told, and the session and login-log tables in Chinese (English with LANG=en). Real processes
 * against a real server (SQLite).
 */
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../../server/test/helpers.js';
import { loginLogTable } from '../src/commands/login-log.js';
import { sessionsTable } from '../src/commands/sessions.js';
import { fileURLToPath } from 'node:url';
import pkg from '../package.json' with { type: 'json' };
import { runCli, startHarness, type CliHarness } from './cli-harness.js';

describe('what the tianji command says', () => {
  let h: CliHarness;
  const signIn = (username: string, password: string, home?: string, extra: string[] = []) =>
    h.run(['login', '--server', h.server, '--username', username, '--password-stdin', ...extra], {
      stdin: `${password}\n`,
      home,
    });

  beforeAll(async () => {
    h = await startHarness('sqlite');
    expect((await signIn(ADMIN.username, ADMIN.password)).code).toBe(0);
  });
  afterAll(() => h?.close());

  it('a wrong password says so, for which user and server, and not that a session ended', async () => {
    const r = await signIn(ADMIN.username, 'not-the-password', h.home());
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('登录失败：用户名或密码错误');
    expect(r.stderr).toContain(`${ADMIN.username} at ${h.server}`);
    expect(r.stderr).not.toContain('会话已结束');
  });

  it('a refused connection names the address it tried', async () => {
    // A port that was just free: nothing listens there.
    const probe = net.createServer();
    await new Promise<void>((ok) => probe.listen(0, '127.0.0.1', ok));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((ok) => probe.close(ok));
    const server = `http://127.0.0.1:${port}`;
    const r = await h.run(['login', '--server', server, '--username', 'x', '--password-stdin'], {
      stdin: 'pw\n',
      home: h.home(),
    });
    expect(r.code).toBe(5);
    expect(r.stderr).toContain(`无法连接服务器 ${server}：ECONNREFUSED`);
  });

  it('ending a session that is not one’s own explains --all instead of a bare 404', async () => {
    const other = h.home();
    expect((await signIn(ADMIN.username, ADMIN.password, other)).code).toBe(0);
    const theirs = JSON.parse((await h.run(['sessions', 'list', '--json'], { home: other })).stdout) as Array<{
      id: string;
      current: boolean;
    }>;
    const id = theirs.find((s) => s.current)!.id;
    // A second user cannot see admin's sessions as its own.
    await h.run(['users', 'create', 'mina', '--password-stdin'], { stdin: 'mina-password-1' });
    await h.t.db.kysely.updateTable('users').set({ must_change_password: 0 }).where('username', '=', 'mina').execute();
    const mina = h.home();
    expect((await signIn('mina', 'mina-password-1', mina)).code).toBe(0);
    const r = await h.run(['sessions', 'end', id], { home: mina });
    expect(r.code).toBe(6); // NOT_FOUND
    expect(r.stderr).toContain('要结束其他用户的会话，请加 --all');
  });

  it('a user that is not there exits 6 (NOT_FOUND), by name or by id, in text and in --json', async () => {
    const byName = await h.run(['users', 'get', '999']);
    expect(byName.code).toBe(6);
    expect(byName.stderr).toContain('没有这个用户：999');
    const byId = await h.run(['--json', 'users', 'get', '00000000-0000-4000-8000-000000000000']);
    expect(byId.code).toBe(6);
    expect(JSON.parse(byId.stderr)).toEqual({
      error: { code: 'NOT_FOUND', message: expect.stringContaining('用户不存在'), exitCode: 6 },
    });
  });

  it('the installed command (bin/tianji.js) prints its package version', async () => {
    const bin = fileURLToPath(new URL('../bin/tianji.js', import.meta.url));
    const r = await runCli(bin, ['--version'], { home: h.home() });
    expect(r).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });

  it('with --json, errors are JSON too: the code, the message and the exit code', async () => {
    const r = await h.run(['whoami', '--json'], { home: h.home() });
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stderr)).toEqual({
      error: { code: 'NOT_SIGNED_IN', message: expect.stringContaining('tianji login'), exitCode: 4 },
    });
    const wrong = await signIn(ADMIN.username, 'nope', h.home(), ['--json']);
    expect(JSON.parse(wrong.stderr).error.code).toBe('WRONG_CREDENTIALS');
  });

  it('sessions list and login-log list use Chinese headers, device labels and 登录地点; English with LANG=en', async () => {
    const sessions = await h.run(['sessions', 'list']);
    expect(sessions.code, sessions.stderr).toBe(0);
    expect(sessions.stdout.split('\n')[0]).toMatch(/^设备\s+方式\s+地址\s+登录地点\s+登录时间\s+最近活动\s+本机\s+ID$/);
    // Signed in with a password from this machine: the method by its name, not `password`.
    expect(sessions.stdout).toMatch(/（命令行）\s+密码\s+127\.0\.0\.1\s+本机\s/);
    const log = await h.run(['login-log', 'list']);
    expect(log.stdout.split('\n')[0]).toMatch(/^时间\s+用户名\s+事件\s+结果\s+原因\s+地址\s+登录地点\s+设备$/);
    expect(log.stdout).toMatch(/127\.0\.0\.1\s+本机\s/);
    expect(log.stdout).toContain('登录');
    expect(log.stdout).toContain('密码错误'); // the wrong password above, by name, not WRONG_PASSWORD
    const en = await h.run(['login-log', 'list'], { env: { LANG: 'en_US.UTF-8' } });
    expect(en.stdout.split('\n')[0]).toMatch(
      /^Time\s+Username\s+Event\s+Result\s+Reason\s+Address\s+Location\s+Device$/,
    );
    expect(en.stdout).toMatch(/127\.0\.0\.1\s+This machine\s/);
    const enSessions = await h.run(['sessions', 'list'], { env: { LANG: 'en_US.UTF-8' } });
    expect(enSessions.stdout.split('\n')[0]).toMatch(/^Device\s+Method\s+Address\s+Location\s+Signed in/);
    expect(enSessions.stdout).toMatch(/CLI）\s+Password\s+127\.0\.0\.1/);
    expect(en.stdout).toContain('Wrong password');
  });

  it('the tables name client kinds and sign-in methods in either language (no process needed)', () => {
    const row = {
      id: 's1',
      clientKind: 'mobile',
      signInMethod: 'passkey',
      deviceLabel: '',
      ip: '14.21.64.1',
      location: { zh: '广东省 深圳市 电信', en: 'Shenzhen, Guangdong (China Telecom)' },
      createdAt: '2026-01-01T00:00:00Z',
      lastUsedAt: '2026-01-01T00:00:00Z',
      expiresAt: '2026-02-01T00:00:00Z',
      current: true,
    };
    expect(sessionsTable([row], false, 'zh')).toContain('移动端');
    expect(sessionsTable([row], false, 'en')).toContain('Mobile');
    expect(sessionsTable([row], false, 'zh')).toMatch(/移动端\s+通行密钥\s+14\.21/);
    expect(sessionsTable([{ ...row, signInMethod: 'device' }], true, 'en')).toMatch(
      /Mobile\s+Approved in a browser\s+14\.21/,
    );
    expect(sessionsTable([row], false, 'zh')).toContain('14.21.64.1  广东省 深圳市 电信');
    expect(sessionsTable([row], true, 'en')).toContain('Shenzhen, Guangdong (China Telecom)');
    const entry = { ...row, username: 'li', event: 'login', result: 'failure', reason: 'WRONG_TOTP' };
    expect(loginLogTable([entry], 'zh')).toContain('两步验证码错误');
    expect(loginLogTable([entry], 'en')).toContain('Wrong two-step code');
    expect(loginLogTable([entry], 'zh')).toContain('广东省 深圳市 电信');
    expect(loginLogTable([entry], 'en')).toContain('Shenzhen, Guangdong (China Telecom)');
  });
});
