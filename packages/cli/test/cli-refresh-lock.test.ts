/**
 * Two `tianji` processes started at once with an expired access token refresh once between them: the server voids
 * a refresh token on use and would take a second use as a replay and revoke the sign-in.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN, dialects } from '../../server/test/helpers.js';
import { startHarness, type CliHarness } from './cli-harness.js';

describe.each(dialects)('tianji: concurrent refresh across processes [%s]', (dialect) => {
  let h: CliHarness;
  const seen = { refresh: 0 };
  let home: string;
  const accessFile = () => path.join(home, 'tianji', 'credentials', 'default.access');
  /** Leaves the stored access token in place but expired, so the next command must refresh. */
  const expireStoredAccess = () => {
    const held = JSON.parse(fs.readFileSync(accessFile(), 'utf8')) as { accessToken: string; expiresAt: number };
    fs.writeFileSync(accessFile(), JSON.stringify({ ...held, expiresAt: 0 }));
  };

  beforeAll(async () => {
    h = await startHarness(dialect, {}, (route) => {
      if (route.url !== '/api/auth/refresh') return;
      const handler = route.handler;
      route.handler = function (req, reply) {
        seen.refresh++;
        return handler.call(this, req, reply);
      };
    });
  });
  afterAll(() => h?.close());

  beforeAll(async () => {
    home = h.home();
    const login = await h.run(['login', '--server', h.server, '--username', ADMIN.username, '--password-stdin'], {
      stdin: ADMIN.password,
      home,
    });
    expect(login.code, login.stderr).toBe(0);
  });
  beforeEach(() => {
    seen.refresh = 0;
  });

  it('a command right after login uses the stored access token: no refresh', async () => {
    const r = await h.run(['whoami', '--json'], { home });
    expect(r.code, r.stderr).toBe(0);
    expect(seen.refresh).toBe(0);
  });

  it('two processes with an expired access token both succeed and the server sees exactly one refresh', async () => {
    expireStoredAccess();
    const [a, b] = await Promise.all([
      h.run(['whoami', '--json'], { home }),
      h.run(['users', 'list', '--json'], { home }),
    ]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(JSON.parse(a.stdout).username).toBe(ADMIN.username);
    expect(JSON.parse(b.stdout).total).toBeGreaterThanOrEqual(1);
    expect(seen.refresh).toBe(1);
    // The sign-in survived: no replay was detected, and the next command needs no refresh either.
    const after = await h.run(['whoami'], { home });
    expect(after.code, after.stderr).toBe(0);
    expect(seen.refresh).toBe(1);
  });

  it('three processes at once still refresh once', async () => {
    expireStoredAccess();
    const runs = await Promise.all([1, 2, 3].map(() => h.run(['whoami', '--json'], { home })));
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    expect(seen.refresh).toBe(1);
  });
});
