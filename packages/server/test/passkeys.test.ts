import { afterAll, beforeAll, expect, it } from 'vitest';
import { bearer, describeEachDb, getTestInstance, login, type TestInstance } from './helpers.js';
import { ageSignIns, insertUser, signIn } from './auth-fixtures.js';
import { SoftAuthenticator } from './soft-authenticator.js';
import { PASSKEY_PROVIDERS } from '../src/admin/auth/passkey-providers.js';

/**
 * Passkeys (issue 53) against a software authenticator: add one after re-authentication, sign in with it alone,
 * the sessions and login log it makes, a role's two-step requirement it satisfies, and what an attacker tries with
 * one (a replayed answer, a counter gone back, another site's origin, another account's user handle) — refused on
 * both databases.
 */
describeEachDb('passkeys', (dialect) => {
  let t: TestInstance;
  let n = 0;
  /** inject's default Host is localhost:80, one of TRUSTED_HOSTS: the relying party is `localhost`. */
  const ORIGIN = 'http://localhost';

  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, token?: string, payload?: object) =>
    t.app.inject({ method, url, ...(token && { headers: bearer(token) }), ...(payload && { payload }) });

  /** Adds a passkey for the signed-in `token` with `auth`. */
  async function addPasskey(token: string, auth: SoftAuthenticator, name?: string) {
    const start = await call('POST', '/api/auth/passkeys/register/options', token);
    expect(start.statusCode, start.body).toBe(200);
    const { options, ceremony } = start.json().data;
    const credential = auth.create(options);
    const done = await call('POST', '/api/auth/passkeys', token, { ceremony, credential, ...(name && { name }) });
    expect(done.statusCode, done.body).toBe(200);
    return done.json().data as { id: string; name: string };
  }

  /** A passkey sign-in: options, the authenticator's answer (as `answer` shapes it), the verdict. */
  async function passkeySignIn(auth: SoftAuthenticator, answer: Parameters<SoftAuthenticator['get']>[1] = {}) {
    const { options, ceremony } = (await call('POST', '/api/auth/passkeys/login/options')).json().data;
    const credential = auth.get(options, answer);
    const res = await call('POST', '/api/auth/passkeys/login', undefined, { ceremony, credential });
    // Never a fault: every refusal is the caller's.
    expect(res.statusCode, res.body).toBeLessThan(500);
    return { res, ceremony, credential };
  }

  /** A new user with one passkey: name, id, the authenticator. */
  async function withPasskey(opts: { counting?: boolean } = {}) {
    const username = `pk${++n}`;
    const id = await insertUser(t.db, username);
    const { accessToken } = await signIn(t.app, username);
    const auth = new SoftAuthenticator(ORIGIN, opts);
    const passkey = await addPasskey(accessToken, auth, '我的电脑');
    return { username, id, auth, passkey, accessToken };
  }

  const reasonsOf = async (userId: string) =>
    (
      await t.db.kysely
        .selectFrom('login_logs')
        .select(['result', 'reason'])
        .where('user_id', '=', userId)
        .where('reason', '!=', '')
        .orderBy('created_at')
        .execute()
    ).map((r) => `${r.result}:${r.reason}`);

  beforeAll(async () => {
    t = await getTestInstance(dialect, { LOGIN_MAX_FAILURES: '50' });
  });
  afterAll(() => t.close());

  it('adds a passkey, lists it by name, and signs in with it alone: a session like any other, logged as 通行密钥', async () => {
    const { id, auth, passkey, username } = await withPasskey();
    expect(passkey.name).toBe('我的电脑');
    const stored = await t.db.kysely.selectFrom('passkeys').selectAll().where('user_id', '=', id).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0].public_key.length).toBeGreaterThan(40);

    const { res } = await passkeySignIn(auth);
    expect(res.statusCode, res.body).toBe(200);
    const session = res.json().data;
    expect(session.user.username).toBe(username);
    expect(session).not.toHaveProperty('mfaRequired');
    const me = (await call('GET', '/api/auth/me', session.accessToken)).json().data;
    expect(me).toMatchObject({ username, passkeyVerified: true });

    const list = (await call('GET', '/api/auth/passkeys', session.accessToken)).json().data;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ name: '我的电脑', sessions: 1, synced: false, transports: ['internal'] });
    expect(list[0].lastUsedAt).not.toBeNull();
    expect(await reasonsOf(id)).toContain('success:PASSKEY');
    const row = await t.db.kysely
      .selectFrom('sessions')
      .select(['sign_in_method', 'amr'])
      .where('user_id', '=', id)
      .where('passkey_id', '=', passkey.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ sign_in_method: 'passkey', amr: 'hwk,user' });
    // Both session lists say how each session was opened: this one by passkey, the first one by password.
    const own = (await call('GET', '/api/auth/sessions', session.accessToken)).json().data;
    expect(own.find((s: { current: boolean }) => s.current).signInMethod).toBe('passkey');
    expect(
      own.filter((s: { current: boolean }) => !s.current).map((s: { signInMethod: string }) => s.signInMethod),
    ).toContain('password');
    const admin = (await login(t.app)).accessToken;
    const online = (await call('GET', `/api/sessions?userId=${id}`, admin)).json().data.items;
    expect(online.map((s: { signInMethod: string }) => s.signInMethod).sort()).toEqual(
      own.map((s: { signInMethod: string }) => s.signInMethod).sort(),
    );

    // A refresh keeps what the session was opened with.
    const refreshed = await call('POST', '/api/auth/refresh', undefined, { refreshToken: session.refreshToken });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect((await call('GET', '/api/auth/me', refreshed.json().data.accessToken)).json().data.passkeyVerified).toBe(
      true,
    );
  });

  it('adding a passkey needs a proof of identity from the last 10 minutes; renaming does not', async () => {
    const { id, accessToken, passkey } = await withPasskey();
    await ageSignIns(t.db, id);
    const late = await call('POST', '/api/auth/passkeys/register/options', accessToken);
    expect(late.statusCode).toBe(403);
    expect(late.json().code).toBe('REAUTH_REQUIRED');
    const renamed = await call('PATCH', `/api/auth/passkeys/${passkey.id}`, accessToken, { name: '办公室' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().data.name).toBe('办公室');
    const blank = await call('PATCH', `/api/auth/passkeys/${passkey.id}`, accessToken, { name: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toContain('name');
  });

  it('says where a passkey lives when its authenticator is a listed provider, else nothing', async () => {
    const { accessToken, passkey } = await withPasskey();
    const providerOf = async (aaguid: string) => {
      await t.db.kysely.updateTable('passkeys').set({ aaguid }).where('id', '=', passkey.id).execute();
      return (await call('GET', '/api/auth/passkeys', accessToken)).json().data[0].provider;
    };
    expect(await providerOf('fbfc3007-154e-4ecc-8c0b-6e020557d7bd')).toBe('iCloud 钥匙串');
    expect(await providerOf('b84e4048-15dc-4dd0-8640-f4f60813c8af')).toBe('NordPass');
    expect(await providerOf('00000000-0000-0000-0000-000000000000')).toBeNull();
    // The library reports AAGUIDs in lower case: a key in any other form would never match.
    for (const aaguid of Object.keys(PASSKEY_PROVIDERS))
      expect(aaguid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('a passkey proves it is you as the password does: the account’s own only, once, and a refusal is 400 not 401', async () => {
    const { id, auth, accessToken } = await withPasskey();
    const other = await withPasskey();
    await ageSignIns(t.db, id);
    const register = () => call('POST', '/api/auth/passkeys/register/options', accessToken);
    expect((await register()).json().code).toBe('REAUTH_REQUIRED');
    const reauthOptions = async () => {
      const res = await call('POST', '/api/auth/passkeys/reauth/options', accessToken);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data;
    };
    const prove = (ceremony: string, credential: unknown) =>
      call('POST', '/api/auth/passkeys/reauth', accessToken, { ceremony, credential });

    // The browser is offered only this account's passkey.
    const first = await reauthOptions();
    expect(first.options.allowCredentials).toHaveLength(1);
    // Another account's passkey (a hostile browser answers with it anyway): 400, the session goes on.
    const foreign = await prove(first.ceremony, other.auth.get(first.options));
    expect(foreign.statusCode, foreign.body).toBe(400);
    expect(foreign.json().message).toMatch(/^通行密钥验证未通过/);
    // An answer for another site.
    const second = await reauthOptions();
    expect(
      (await prove(second.ceremony, auth.get(second.options, { origin: 'https://phish.example' }))).statusCode,
    ).toBe(400);
    // A ceremony begun by another account cannot prove this one.
    const theirs = (await call('POST', '/api/auth/passkeys/reauth/options', other.accessToken)).json().data;
    expect((await prove(theirs.ceremony, auth.get(theirs.options))).statusCode).toBe(400);
    // A sign-in ceremony is not a proof ceremony.
    const login = (await call('POST', '/api/auth/passkeys/login/options')).json().data;
    expect((await prove(login.ceremony, auth.get(login.options))).statusCode).toBe(400);
    expect((await register()).json().code).toBe('REAUTH_REQUIRED');

    const third = await reauthOptions();
    const answer = auth.get(third.options);
    const proven = await prove(third.ceremony, answer);
    expect(proven.statusCode, proven.body).toBe(200);
    expect(Date.parse(proven.json().data.until)).toBeGreaterThan(Date.now());
    expect((await register()).statusCode).toBe(200);
    // The same answer again finds its ceremony spent (and its counter used).
    expect((await prove(third.ceremony, answer)).statusCode).toBe(400);
    // Every refusal left the session as it was.
    expect((await call('GET', '/api/auth/me', accessToken)).statusCode).toBe(200);
  });

  it('an account without passkeys is told to use its password (409)', async () => {
    const username = `pk${++n}`;
    await insertUser(t.db, username);
    const { accessToken } = await signIn(t.app, username);
    const res = await call('POST', '/api/auth/passkeys/reauth/options', accessToken);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/^你还没有通行密钥：请输入当前密码验证身份/);
  });

  it('an expired or foreign registration ceremony is 400, and the session goes on', async () => {
    const { accessToken } = await withPasskey();
    const other = await withPasskey();
    const theirs = (await call('POST', '/api/auth/passkeys/register/options', other.accessToken)).json().data;
    const auth = new SoftAuthenticator(ORIGIN);
    const res = await call('POST', '/api/auth/passkeys', accessToken, {
      ceremony: theirs.ceremony,
      credential: auth.create(theirs.options),
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(/^此次添加已失效/);
    const garbage = await call('POST', '/api/auth/passkeys', accessToken, {
      ceremony: 'not-a-ceremony',
      credential: auth.create(theirs.options),
    });
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json().message).toMatch(/^此次添加已过期或无效/);
    expect((await call('GET', '/api/auth/me', accessToken)).statusCode).toBe(200);
  });

  it('refuses a registration made for another origin or without user verification', async () => {
    const username = `pk${++n}`;
    await insertUser(t.db, username);
    const { accessToken } = await signIn(t.app, username);
    const auth = new SoftAuthenticator(ORIGIN);
    for (const at of [{ origin: 'https://phish.example' }, { userVerified: false }]) {
      const { options, ceremony } = (await call('POST', '/api/auth/passkeys/register/options', accessToken)).json()
        .data;
      const res = await call('POST', '/api/auth/passkeys', accessToken, {
        ceremony,
        credential: auth.create(options, at),
      });
      expect(res.statusCode, JSON.stringify(at)).toBe(400);
      expect(res.json().message).toMatch(/^通行密钥验证未通过/);
    }
    expect((await call('GET', '/api/auth/passkeys', accessToken)).json().data).toEqual([]);
  });

  it.each([
    ['a device-bound passkey (its counter moves)', true],
    ['a synced passkey (its counter stays 0)', false],
  ])('an answer sent twice signs in once: the second is refused and logged — %s', async (_, counting) => {
    const { id, auth } = await withPasskey({ counting });
    const first = await passkeySignIn(auth);
    expect(first.res.statusCode).toBe(200);
    const again = await call('POST', '/api/auth/passkeys/login', undefined, {
      ceremony: first.ceremony,
      credential: first.credential,
    });
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toContain('通行密钥');
    expect(await reasonsOf(id)).toEqual(['success:PASSKEY', 'failure:PASSKEY_INVALID']);
  });

  it('a signature counter that goes back (a cloned key) is refused', async () => {
    const { auth } = await withPasskey();
    expect((await passkeySignIn(auth, { counter: 7 })).res.statusCode).toBe(200);
    const back = await passkeySignIn(auth, { counter: 3 });
    expect(back.res.statusCode).toBe(401);
    const same = await passkeySignIn(auth, { counter: 7 });
    expect(same.res.statusCode).toBe(401);
    expect((await passkeySignIn(auth, { counter: 8 })).res.statusCode).toBe(200);
  });

  it('an answer made for another site (origin) or naming another account (user handle) is refused', async () => {
    const { auth } = await withPasskey();
    const other = await withPasskey();
    const phished = await passkeySignIn(auth, { origin: 'https://tianji.phish.example' });
    expect(phished.res.statusCode).toBe(401);
    const handle = Buffer.from(other.id).toString('base64url');
    const swapped = await passkeySignIn(auth, { userHandle: handle });
    expect(swapped.res.statusCode).toBe(401);
    // Unknown to us: no account is named, the address is counted.
    const stranger = new SoftAuthenticator(ORIGIN);
    stranger.create({ challenge: 'x', user: { id: Buffer.from(other.id).toString('base64url') } });
    const unknown = await passkeySignIn(stranger);
    expect(unknown.res.statusCode).toBe(401);
    expect(unknown.res.json().message).toContain('通行密钥验证未通过');
  });

  it('a disabled account cannot sign in with its passkey', async () => {
    const { id, auth } = await withPasskey();
    await t.db.kysely.updateTable('users').set({ status: 'disabled' }).where('id', '=', id).execute();
    const { res } = await passkeySignIn(auth);
    expect(res.statusCode).toBe(401);
    expect(await reasonsOf(id)).toContain('failure:ACCOUNT_DISABLED');
  });

  it('a role that requires two-step sign-in is satisfied by a passkey session, not by the password alone', async () => {
    const admin = (await login(t.app)).accessToken;
    const role = await call('POST', '/api/roles', admin, {
      code: `pk_role_${dialect}`,
      name: `要求两步验证${dialect}`,
      requireTotp: true,
    });
    expect(role.statusCode, role.body).toBe(201);
    const { id, username, auth } = await withPasskey();
    await call('PUT', `/api/users/${id}/roles`, admin, { roleIds: [role.json().data.id] });

    const byPassword = await signIn(t.app, username);
    const blocked = await call('GET', '/api/permissions', byPassword.accessToken);
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().code).toBe('TOTP_SETUP_REQUIRED');
    expect(blocked.json().message).toContain('通行密钥');

    const { res } = await passkeySignIn(auth);
    const byPasskey = res.json().data;
    expect((await call('GET', '/api/permissions', byPasskey.accessToken)).statusCode).toBe(200);
    const me = (await call('GET', '/api/auth/me', byPasskey.accessToken)).json().data;
    expect(me).toMatchObject({ totpRequired: true, totpEnabled: false, passkeyVerified: true });
  });

  it('removing a passkey ends the sessions it opened when asked, and keeps this device and the others', async () => {
    const { id, auth, passkey, username } = await withPasskey();
    const opened = [(await passkeySignIn(auth)).res.json().data, (await passkeySignIn(auth)).res.json().data];
    const byPassword = await signIn(t.app, username);
    const remove = await call('DELETE', `/api/auth/passkeys/${passkey.id}?endSessions=true`, opened[0].accessToken);
    expect(remove.statusCode, remove.body).toBe(200);
    expect(remove.json().data.signedOut).toBe(1);
    expect((await call('GET', '/api/auth/me', opened[0].accessToken)).statusCode).toBe(200);
    const ended = await call('GET', '/api/auth/me', opened[1].accessToken);
    expect(ended.statusCode).toBe(401);
    expect(ended.json().code).toBe('SESSION_ENDED');
    expect((await call('GET', '/api/auth/me', byPassword.accessToken)).statusCode).toBe(200);
    // Gone: it opens nothing more.
    expect((await passkeySignIn(auth)).res.statusCode).toBe(401);
    const audit = await t.db.kysely.selectFrom('audit_logs').select('action').where('target_id', '=', id).execute();
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['auth.passkey-add', 'auth.passkey-remove']));
  });

  it('an operator’s 重置两步验证 removes the passkeys of a user who has no TOTP, and signs them out', async () => {
    const admin = (await login(t.app)).accessToken;
    const { id, auth } = await withPasskey();
    const session = (await passkeySignIn(auth)).res.json().data;
    const listed = (await call('GET', `/api/users/${id}`, admin)).json().data;
    expect(listed).toMatchObject({ totpEnabled: false, passkeys: 1 });
    const reset = await call('POST', `/api/users/${id}/reset-totp`, admin);
    expect(reset.statusCode, reset.body).toBe(204);
    expect((await call('GET', '/api/auth/me', session.accessToken)).statusCode).toBe(401);
    expect(await t.db.kysely.selectFrom('passkeys').select('id').where('user_id', '=', id).execute()).toEqual([]);
    expect((await passkeySignIn(auth)).res.statusCode).toBe(401);
    const again = await call('POST', `/api/users/${id}/reset-totp`, admin);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('通行密钥');
  });

  it('a site opened by IP address is told to use a host name', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/passkeys/login/options',
      headers: { host: '127.0.0.1:3000' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('IP 地址');
    expect(res.json().message).toContain('localhost');
    const stranger = await t.app.inject({
      method: 'POST',
      url: '/api/auth/passkeys/login/options',
      headers: { host: 'evil.example' },
    });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().message).toContain('TRUSTED_HOSTS');
  });

  it.each([
    ['device-bound', true],
    ['synced', false],
  ])('the same answer sent concurrently opens exactly one session (many rounds) — %s', async (_, counting) => {
    const { id, auth } = await withPasskey({ counting });
    for (let round = 0; round < 8; round++) {
      const { options, ceremony } = (await call('POST', '/api/auth/passkeys/login/options')).json().data;
      const credential = auth.get(options);
      // From six addresses, as six stolen copies would come: the sign-in throttle counts per (account, address).
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          t.app.inject({
            method: 'POST',
            url: '/api/auth/passkeys/login',
            payload: { ceremony, credential },
            remoteAddress: `10.${counting ? 53 : 54}.${round}.${i + 1}`,
          }),
        ),
      );
      expect(answers.map((a) => a.statusCode).sort(), `round ${round}`).toEqual([200, 401, 401, 401, 401, 401]);
    }
    const sessions = await t.db.kysely
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', id)
      .where('sign_in_method', '=', 'passkey')
      .execute();
    expect(sessions).toHaveLength(8);
  });
});
