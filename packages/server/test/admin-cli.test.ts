import { beforeAll, expect, it } from 'vitest';
import { EXIT, runAdminCli } from '../src/cli/admin-commands.js';
import { bearer, describeEachDb, useTestApp, login, ADMIN } from './helpers.js';
import { adminCall, createUser, PASSWORD, type Call } from './admin-fixtures.js';

describeEachDb('operator recovery CLI', (dialect) => {
  const t = useTestApp(dialect);
  let admin: Call;
  beforeAll(async () => {
    admin = await adminCall(t.app);
  });

  /** Runs one command against the test database and captures what it prints. */
  async function cli(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdminCli(argv, t.db.kysely, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('reset-password with a generated password prints it once and signs the user out everywhere', async () => {
    const session = await login(t.app);
    const res = await cli('reset-password', 'admin');
    expect(res.code).toBe(EXIT.OK);
    const generated = /New password: (\S+)/.exec(res.out)?.[1];
    expect(generated).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect((await t.app.inject({ url: '/api/auth/me', headers: bearer(session.accessToken) })).statusCode).toBe(401);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/refresh',
          payload: { refreshToken: session.refreshToken },
        })
      ).statusCode,
    ).toBe(401);
    await login(t.app, 'admin', generated);
    expect((await cli('reset-password', 'admin', '--password', ADMIN.password)).out).not.toContain(ADMIN.password);
    admin = await adminCall(t.app);
    const audit = (await admin('GET', '/api/audit-logs?action=cli.reset-password')).json().data.items;
    expect(audit[0]).toMatchObject({
      actorId: null,
      actorUsername: '(cli)',
      ip: 'local',
      detail: { username: 'admin' },
    });
    expect(JSON.stringify(audit)).not.toContain(generated);
  });

  it('create-super-admin creates a new super administrator who can sign in', async () => {
    const res = await cli('create-super-admin', 'rescuer', '--password', 'rescue-password-1');
    expect(res.code).toBe(EXIT.OK);
    expect(res.out).toContain('Created super administrator "rescuer"');
    const session = await login(t.app, 'rescuer', 'rescue-password-1');
    expect(session.user.permissions).toBe(2 ** 63);
  });

  it('create-super-admin enables an existing disabled user and grants the role, keeping the password', async () => {
    const id = await createUser(admin, 'locked_out', [], { status: 'disabled' });
    const res = await cli('create-super-admin', 'locked_out');
    expect(res.code).toBe(EXIT.OK);
    expect(res.out).toContain('now enabled again');
    expect(res.out).not.toContain('Password:');
    const user = (await admin('GET', `/api/users/${id}`)).json().data;
    expect(user).toMatchObject({ status: 'enabled', roles: [expect.objectContaining({ code: 'super_admin' })] });
    await login(t.app, 'locked_out', PASSWORD);
    // Running it again changes nothing and still succeeds.
    expect((await cli('create-super-admin', 'locked_out')).code).toBe(EXIT.OK);
  });

  it('list-super-admins shows who holds the role and warns when none is enabled', async () => {
    const res = await cli('list-super-admins');
    expect(res.code).toBe(EXIT.OK);
    expect(res.out.split('\n').map((l) => l.split('\t').slice(0, 2).join(' '))).toEqual([
      'admin enabled',
      'locked_out enabled',
      'rescuer enabled',
    ]);
    await t.db.kysely.updateTable('users').set({ status: 'disabled' }).execute();
    expect((await cli('list-super-admins')).out).toContain('No enabled super administrator');
    await t.db.kysely.updateTable('users').set({ status: 'enabled' }).execute();
  });

  it('explains wrong usage with exit code 2 and a missing user with exit code 1', async () => {
    const none = await cli();
    expect(none.code).toBe(EXIT.USAGE);
    expect(none.out).toContain('Usage: npm run admin');
    expect((await cli('--help')).code).toBe(EXIT.OK);
    const unknown = await cli('drop-tables');
    expect(unknown).toMatchObject({ code: EXIT.USAGE });
    expect(unknown.err).toContain('unknown command "drop-tables"');
    expect((await cli('reset-password')).err).toContain('exactly one <username>');
    expect((await cli('reset-password', 'admin', '--password', 'short')).err).toContain(
      '--password must be 8 to 128 characters',
    );
    expect((await cli('create-super-admin', 'no spaces allowed')).code).toBe(EXIT.USAGE);
    expect((await cli('reset-password', 'admin', '--colour')).code).toBe(EXIT.USAGE);
    const missing = await cli('reset-password', 'nobody');
    expect(missing.code).toBe(EXIT.FAILED);
    expect(missing.err).toBe('error: no user named "nobody" (list-super-admins shows the super administrators)');
  });
});
