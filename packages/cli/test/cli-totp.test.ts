/**
 * `tianji totp` against a real server: two-step sign-in of one's own account from the command line, and the proof of
 * identity an old session must give before enrolling (REAUTH_REQUIRED: --password-stdin here; a hidden prompt on a
 * terminal).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER_PASSWORD, insertUser } from '../../server/test/auth-fixtures.js';
import { ageSessions } from '../../server/test/reauth-fixtures.js';
import { totpCode } from '../../server/src/admin/auth/totp.js';
import { startHarness, type CliHarness } from './cli-harness.js';

describe('tianji totp', () => {
  let h: CliHarness;
  beforeAll(async () => {
    h = await startHarness('sqlite');
  });
  afterAll(() => h?.close());

  /** A new user signed in with the CLI in a config home of their own; `run` runs commands as them. */
  async function signedIn(username: string) {
    await insertUser(h.t.db, username);
    const home = h.home();
    const login = await h.run(['login', '--server', h.server, '--username', username, '--password-stdin'], {
      stdin: `${USER_PASSWORD}\n`,
      home,
    });
    expect(login.code, login.stderr).toBe(0);
    return (args: string[], stdin?: string) => h.run(args, { home, stdin });
  }

  it('help lists the commands in Chinese; 2fa is the same command', async () => {
    const help = await h.run(['totp', '--help']);
    expect(help.code).toBe(0);
    for (const cmd of ['status', 'setup', 'enable', 'disable', 'recovery-codes']) expect(help.stdout).toContain(cmd);
    expect(help.stdout).toContain('我的两步验证');
    const enable = await h.run(['2fa', 'enable', '--help']);
    expect(enable.stdout).toContain('--password-stdin');
    expect(enable.stdout).toContain('6 位验证码');
  });

  it('right after login: setup shows the secret and URI, enable prints ten recovery codes with a warning', async () => {
    const run = await signedIn('cli_totp_fresh');
    expect(JSON.parse((await run(['totp', 'status', '--json'])).stdout)).toEqual({
      totpEnabled: false,
      totpRequired: false,
    });
    const setup = await run(['totp', 'setup']);
    expect(setup.code, setup.stderr).toBe(0);
    const secret = /^密钥\s+([A-Z2-7]+)$/m.exec(setup.stdout)?.[1];
    expect(secret).toBeDefined();
    expect(setup.stdout).toMatch(/^链接\s+otpauth:\/\/totp\/.+secret=/m);
    expect(setup.stdout).toContain('tianji totp enable');
    // Not a terminal: no QR drawing in a pipe.
    expect(setup.stdout).not.toMatch(/[▀▄█]/);

    const enable = await run(['totp', 'enable', '--code', totpCode(secret!, Date.now() - 30_000)]);
    expect(enable.code, enable.stderr).toBe(0);
    expect(enable.stdout).toContain('两步验证已开启');
    expect(enable.stdout).toContain('只显示这一次');
    expect(enable.stdout.match(/^[0-9a-z]{4,}-?[0-9a-z]{4,}$/gim)).toHaveLength(10);
    expect((await run(['totp', 'status'])).stdout).toMatch(/两步验证\s+已开启/);
  });

  it('an old session asks for the password: without a terminal or --password-stdin it says how, then reauth and retry', async () => {
    const run = await signedIn('cli_totp_old');
    await ageSessions(h.t.db, 'cli_totp_old');

    const refused = await run(['totp', 'setup']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/^tianji: 此操作需要先验证身份：.*请用 --password-stdin 从标准输入传入当前密码/m);
    const json = await run(['totp', 'setup', '--json']);
    expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'REAUTH_REQUIRED', exitCode: 3 });

    const wrong = await run(['totp', 'setup', '--password-stdin'], 'not-the-password\n');
    expect(wrong.code).toBe(5);
    expect(wrong.stderr).toContain('验证身份失败：参数 password 无效：密码不正确');

    const setup = await run(['totp', 'setup', '--password-stdin', '--json'], `${USER_PASSWORD}\n`);
    expect(setup.code, setup.stderr).toBe(0);
    const { secret, otpauthUri } = JSON.parse(setup.stdout) as { secret: string; otpauthUri: string };
    expect(otpauthUri).toContain(`secret=${secret}`);
    // The proof counts for ten minutes: enable asks nothing again.
    const enable = await run(['totp', 'enable', '--code', totpCode(secret, Date.now()), '--json']);
    expect(enable.code, enable.stderr).toBe(0);
    expect(JSON.parse(enable.stdout)).toMatchObject({ enabled: true, signedOut: 0 });
    expect(JSON.parse(enable.stdout).recoveryCodes).toHaveLength(10);
  });

  it('enable on an old session with --password-stdin re-authenticates and retries', async () => {
    const run = await signedIn('cli_totp_enable');
    const { secret } = JSON.parse((await run(['totp', 'setup', '--json'])).stdout) as { secret: string };
    await ageSessions(h.t.db, 'cli_totp_enable');
    const code = totpCode(secret, Date.now());
    expect((await run(['totp', 'enable', '--code', code])).code).toBe(3);
    const enable = await run(['totp', 'enable', '--code', code, '--password-stdin'], `${USER_PASSWORD}\n`);
    expect(enable.code, enable.stderr).toBe(0);
    expect(enable.stdout).toContain('两步验证已开启');
  });

  it('recovery-codes and disable take the proof: a code, or the password from stdin; none outside a terminal is a usage error', async () => {
    const run = await signedIn('cli_totp_off');
    const { secret } = JSON.parse((await run(['totp', 'setup', '--json'])).stdout) as { secret: string };
    const first = JSON.parse((await run(['totp', 'enable', '--code', totpCode(secret, Date.now()), '--json'])).stdout)
      .recoveryCodes as string[];

    const bare = await run(['totp', 'recovery-codes']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('--password-stdin');
    expect(bare.stderr).toContain('--totp');
    const fresh = await run(['totp', 'recovery-codes', '--totp', first[0], '--json']);
    expect(fresh.code, fresh.stderr).toBe(0);
    const codes = JSON.parse(fresh.stdout).recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(codes).not.toContain(first[1]);

    const wrong = await run(['totp', 'disable', '--password-stdin'], 'not-the-password\n');
    expect(wrong.code).toBe(5);
    expect(wrong.stderr).toContain('密码不正确');
    const off = await run(['totp', 'disable', '--password-stdin'], `${USER_PASSWORD}\n`);
    expect(off.code, off.stderr).toBe(0);
    expect(off.stdout).toContain('两步验证已关闭');
    expect((await run(['2fa', 'status'])).stdout).toMatch(/两步验证\s+未开启/);
  });
});
