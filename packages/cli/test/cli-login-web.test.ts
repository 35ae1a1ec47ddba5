/**
 * `tianji login --web` against a real server (the device flow, RFC 8628; issue 53): the CLI prints the link and the
 * code, a signed-in user approves through the API (as the browser page does), and the CLI saves its own session.
 * A refusal or an expired code ends with the server's Chinese message and exit code 4. Each poll waits the server's
 * 5 s interval.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../server/test/helpers.js';
import { insertUser, signIn } from '../../server/test/auth-fixtures.js';
import { startHarness, type CliHarness } from './cli-harness.js';

const CODE_LINE = /并输入代码：([BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4})（10 分钟内有效）/;

describe('tianji login --web', () => {
  let h: CliHarness;
  beforeAll(async () => {
    h = await startHarness('sqlite');
  });
  afterAll(() => h?.close());

  async function signedInUser(username: string) {
    const id = await insertUser(h.t.db, username);
    return { id, username, ...(await signIn(h.t.app, username)) };
  }
  const decide = (token: string, userCode: string, verdict: 'approve' | 'deny') =>
    h.t.app.inject({
      method: 'POST',
      url: `/api/auth/device/requests/${userCode}/${verdict}`,
      headers: bearer(token),
    });

  it('prints the link and the code, waits for the approval, then is signed in as the approver', async () => {
    const alice = await signedInUser('web_alice');
    const mallory = await signedInUser('web_mallory');
    const home = h.home();
    const cli = h.start(['--json', 'login', '--web', '--server', h.server, '--username', 'web_alice'], { home });
    const [, userCode] = await cli.waitFor(CODE_LINE);
    const printed = await cli.waitFor(/请在已登录的浏览器中打开 (\S+) 并输入代码/);
    expect(printed[1]).toBe(`${h.server}/device`);
    await cli.waitFor(new RegExp(`或直接打开：${h.server}/device\\?code=${userCode}`));

    // The request names the CLI's machine; another account may not approve it.
    const seen = await h.t.app.inject({
      url: `/api/auth/device/requests/${userCode}`,
      headers: bearer(alice.accessToken),
    });
    expect(seen.json().data.clientName).toMatch(/^tianji 命令行 · /);
    expect((await decide(mallory.accessToken, userCode, 'approve')).statusCode).toBe(403);
    expect((await decide(alice.accessToken, userCode, 'approve')).statusCode).toBe(200);

    const done = await cli.done;
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ username: 'web_alice', mustChangePassword: false });
    // Not a terminal: no progress line.
    expect(done.stderr).not.toContain('\r');
    const who = await h.run(['--json', 'whoami'], { home });
    expect(who.code, who.stderr).toBe(0);
    expect(JSON.parse(who.stdout).username).toBe('web_alice');
    const session = await h.t.db.kysely
      .selectFrom('sessions')
      .select(['client_kind', 'sign_in_method'])
      .where('user_id', '=', alice.id)
      .where('sign_in_method', '=', 'device')
      .executeTakeFirstOrThrow();
    expect(session).toEqual({ client_kind: 'cli', sign_in_method: 'device' });
  });

  it('a refusal and an expired code: the server’s message, exit code 4, nothing saved', async () => {
    const bob = await signedInUser('web_bob');
    const denyHome = h.home();
    const expireHome = h.home();
    const denied = h.start(['login', '--web', '--server', h.server], { home: denyHome });
    const expired = h.start(['--json', 'login', '--web', '--server', h.server], { home: expireHome });
    const [, deniedCode] = await denied.waitFor(CODE_LINE);
    const [, expiredCode] = await expired.waitFor(CODE_LINE);
    expect((await decide(bob.accessToken, deniedCode, 'deny')).statusCode).toBe(204);
    await h.t.db.kysely
      .updateTable('device_authorizations')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_code', '=', expiredCode.replace('-', ''))
      .execute();

    const no = await denied.done;
    expect(no.code).toBe(4);
    expect(no.stderr).toMatch(/^tianji: 登录失败：登录请求已被拒绝/m);
    expect(no.stdout).toBe('');
    const late = await expired.done;
    expect(late.code).toBe(4);
    expect(JSON.parse(late.stderr.trim().split('\n').at(-1)!).error).toMatchObject({
      code: 'EXPIRED_TOKEN',
      exitCode: 4,
      message: expect.stringMatching(/^登录失败：授权码已过期，请重新运行 tianji login --web/),
    });
    for (const home of [denyHome, expireHome]) expect((await h.run(['whoami'], { home })).code).toBe(4);
  });

  it('--web takes no password or code: a usage error before anything is asked', async () => {
    for (const extra of [['--password-stdin'], ['--totp', '123456']]) {
      const res = await h.run(['login', '--web', '--server', h.server, ...extra]);
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(/^tianji: --web 不能与 --password-stdin 或 --totp 同时使用/);
    }
    const help = await h.run(['login', '--help']);
    expect(help.stdout).toContain('--web');
    expect(help.stdout).toContain('tianji login --web');
  });
});
