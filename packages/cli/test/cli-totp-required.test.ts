/**
 * A member of a role that requires two-step sign-in, without it yet, at the command line: `tianji login` says in one
 * sentence which two commands turn it on, every other command refused for it says the same (exit 3, no 「无权限」),
 * and after `tianji totp setup` and `tianji totp enable --code` the commands work.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCall, PASSWORD } from '../../server/test/admin-fixtures.js';
import { totpRoleMember } from '../../server/test/totp-fixtures.js';
import { totpCode } from '../../server/src/admin/auth/totp.js';
import { startHarness, type CliHarness } from './cli-harness.js';

/** The sentence: both commands, in the order they are run. */
const STEPS =
  /^(注意|tianji): 你所属的角色要求两步验证.*请先运行 tianji totp setup.*再运行 tianji totp enable --code <6位验证码>/m;

describe('tianji with a role that requires two-step sign-in', () => {
  let h: CliHarness;
  beforeAll(async () => {
    h = await startHarness('sqlite');
  });
  afterAll(() => h?.close());

  it('login and a refused command name tianji totp setup, then enable; enrolled, the command works', {
    timeout: 120_000,
  }, async () => {
    await totpRoleMember(await adminCall(h.t.app), 'cli_totp_member');
    const home = h.home();
    const run = (args: string[]) => h.run(args, { home });

    const login = await h.run(['login', '--server', h.server, '--username', 'cli_totp_member', '--password-stdin'], {
      stdin: `${PASSWORD}\n`,
      home,
    });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr.replace(/^注意：/m, '注意: ')).toMatch(STEPS);
    expect(login.stderr.trim().split('\n')).toHaveLength(1);

    const refused = await run(['users', 'list']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(STEPS);
    expect(refused.stderr).not.toContain('无权限');
    expect(JSON.parse((await run(['users', 'list', '--json'])).stderr).error).toMatchObject({
      code: 'TOTP_SETUP_REQUIRED',
      exitCode: 3,
    });

    const setup = await run(['totp', 'setup']);
    expect(setup.code, setup.stderr).toBe(0);
    const secret = /^密钥\s+([A-Z2-7]+)$/m.exec(setup.stdout)![1];
    const enable = await run(['totp', 'enable', '--code', totpCode(secret, Date.now())]);
    expect(enable.code, enable.stderr).toBe(0);

    // The role may read the sessions (not the users): that list answers now.
    const listed = await run(['sessions', 'list', '--all']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('cli_totp_member');
  });
});
