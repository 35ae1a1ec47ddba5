import { expect, it } from 'vitest';
import { EXIT, runAdminCli } from '../src/cli/admin-commands.js';
import { ADMIN, describeEachDb, useTestApp } from './helpers.js';

/** Issue 26: a password the recovery CLI or ADMIN_PASSWORD sets is scored by the policy the admin API uses. */

const POLICY = { minLength: 8, minScore: 3 };
const WEAK = 'password123'; // zxcvbn score 0: a common password

describeEachDb('recovery CLI passwords and the password policy', (dialect) => {
  const t = useTestApp(dialect);

  async function cli(argv: string[], stdin?: string) {
    const out: string[] = [];
    const err: string[] = [];
    const io = {
      out: (l: string) => out.push(l),
      err: (l: string) => err.push(l),
      ...(stdin !== undefined && { readStdin: async () => stdin }),
    };
    const code = await runAdminCli(argv, t.db.kysely, io, { passwordPolicy: POLICY });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  /** Signs in (which must work) and answers whether the account must change its password first. */
  async function mustChange(username: string, password: string): Promise<boolean> {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.mustChangePassword;
  }

  it('a weak --password is set, but its user must change it at the next sign-in', async () => {
    const res = await cli(['reset-password', ADMIN.username, '--password', WEAK]);
    expect(res.code).toBe(EXIT.OK);
    expect(res.out).toContain('below the password policy');
    expect(res.out).toContain('密码强度不足');
    expect(res.out).not.toContain(WEAK);
    expect(await mustChange(ADMIN.username, WEAK)).toBe(true);
    // A password that meets the policy stands, as before.
    expect((await cli(['reset-password', ADMIN.username, '--password', ADMIN.password])).code).toBe(EXIT.OK);
    expect(await mustChange(ADMIN.username, ADMIN.password)).toBe(false);
  });

  it('--password-stdin takes the first line of standard input, scored the same way', async () => {
    const strong = await cli(['create-super-admin', 'stdin_admin', '--password-stdin'], 'correct-horse-battery-7\n');
    expect(strong.code, strong.err).toBe(EXIT.OK);
    expect(strong.out).not.toContain('correct-horse-battery-7');
    expect(await mustChange('stdin_admin', 'correct-horse-battery-7')).toBe(false);
    const weak = await cli(['reset-password', 'stdin_admin', '--password-stdin'], `${WEAK}\r\nignored\n`);
    expect(weak.code, weak.err).toBe(EXIT.OK);
    expect(await mustChange('stdin_admin', WEAK)).toBe(true);
  });

  it('--password-stdin refuses an empty input, and --password beside it', async () => {
    const empty = await cli(['reset-password', 'stdin_admin', '--password-stdin'], '\n');
    expect(empty.code).toBe(EXIT.USAGE);
    expect(empty.err).toContain('standard input is empty');
    const both = await cli(['reset-password', 'stdin_admin', '--password', 'x-password-9', '--password-stdin'], 'y\n');
    expect(both.code).toBe(EXIT.USAGE);
    expect(both.err).toContain('not both');
  });
});

describeEachDb('a weak ADMIN_PASSWORD', (dialect) => {
  const t = useTestApp(dialect, { ADMIN_USERNAME: 'owner', ADMIN_PASSWORD: WEAK });

  it('seeds the first super administrator with mustChangePassword', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'owner', password: WEAK },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.mustChangePassword).toBe(true);
    const users = await t.app.inject({
      url: '/api/users',
      headers: { authorization: `Bearer ${res.json().data.accessToken}` },
    });
    expect(users.json().code).toBe('PASSWORD_CHANGE_REQUIRED');
  });
});
