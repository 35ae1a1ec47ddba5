import { beforeEach, expect, it } from 'vitest';
import { describeEachDb, useTestApp } from './helpers.js';
import { USER_PASSWORD, expectUnauthorized, insertUser, me, refresh, signIn } from './auth-fixtures.js';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describeEachDb('refresh token rotation and sessions', (dialect) => {
  let n = 0;
  /** The server's session clock runs this far ahead of real time: tests step past the refresh grace window without sleeping. */
  let skew = 0;
  const GRACE_MS = 10_000;
  /** A fresh user per test, so one test's revocations cannot help or hurt another. */
  const freshUser = async () => {
    const username = `user${++n}`;
    return { username, id: await insertUser(t.db, username) };
  };

  const t = useTestApp(dialect, { REFRESH_REUSE_GRACE: '10s' }, { now: () => Date.now() + skew });
  beforeEach(() => {
    skew = 0;
  });

  it('refresh rotates the pair and voids the presented refresh token at once', async () => {
    const { username } = await freshUser();
    const first = await signIn(t.app, username);
    const res = await refresh(t.app, first.refreshToken);
    expect(res.statusCode).toBe(200);
    const next = res.json().data;
    expect(Object.keys(next).sort()).toEqual(['accessToken', 'refreshToken']);
    expect(next.refreshToken).not.toBe(first.refreshToken);
    expect((await me(t.app, next.accessToken)).statusCode).toBe(200);
    expectUnauthorized(await refresh(t.app, first.refreshToken), /concurrent/, 'REFRESH_SUPERSEDED');
  });

  it('a replay within the grace window of its own rotation is a lost race: 401, and the session lives on', async () => {
    const { username } = await freshUser();
    const first = await signIn(t.app, username);
    const winner = (await refresh(t.app, first.refreshToken)).json().data;
    // Half the window, not its last 100 ms: on a busy machine more than 100 ms of real time passed between the
    // rotation and the replay, which then fell past the window and was judged theft (a failure by chance).
    skew = GRACE_MS / 2;
    expectUnauthorized(await refresh(t.app, first.refreshToken), /concurrent/, 'REFRESH_SUPERSEDED');
    expect((await me(t.app, winner.accessToken)).statusCode).toBe(200);
    expect((await refresh(t.app, winner.refreshToken)).statusCode).toBe(200);
  });

  it('a replay past the grace window is theft: the whole session ends with REFRESH_REUSED', async () => {
    const { username } = await freshUser();
    const first = await signIn(t.app, username);
    const winner = (await refresh(t.app, first.refreshToken)).json().data;
    skew = GRACE_MS + 100;
    expectUnauthorized(await refresh(t.app, first.refreshToken), /reuse detected/, 'REFRESH_REUSED');
    expectUnauthorized(await me(t.app, winner.accessToken), /session ended/, 'REFRESH_REUSED');
    expectUnauthorized(await refresh(t.app, winner.refreshToken), /revoked/, 'REFRESH_REUSED');
  });

  it('a replayed refresh token revokes its whole family but leaves another device signed in', async () => {
    const { username } = await freshUser();
    const laptop = await signIn(t.app, username);
    const phone = await signIn(t.app, username);
    const rotated = (await refresh(t.app, laptop.refreshToken)).json().data;
    // The thief replays the stolen, already-rotated token a while later…
    skew = GRACE_MS + 1;
    expectUnauthorized(await refresh(t.app, laptop.refreshToken), /reuse detected/, 'REFRESH_REUSED');
    // …which kills the token the rotation issued as well, so neither party keeps the session.
    expectUnauthorized(await refresh(t.app, rotated.refreshToken), /revoked/, 'REFRESH_REUSED');
    const phoneNext = await refresh(t.app, phone.refreshToken);
    expect(phoneNext.statusCode).toBe(200);
    expect((await me(t.app, phoneNext.json().data.accessToken)).statusCode).toBe(200);
  });

  it('of 50 concurrent refreshes with one token exactly one succeeds, and the winner keeps its session', async () => {
    const { username } = await freshUser();
    const { refreshToken } = await signIn(t.app, username);
    const results = await Promise.all(Array.from({ length: 50 }, () => refresh(t.app, refreshToken)));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 401)).toHaveLength(49);
    for (const r of results.filter((x) => x.statusCode === 401)) expect(r.json().code).toBe('REFRESH_SUPERSEDED');
    const rows = await t.db.kysely
      .selectFrom('refresh_tokens')
      .innerJoin('users', 'users.id', 'refresh_tokens.user_id')
      .select('refresh_tokens.id')
      .where('users.username', '=', username)
      .execute();
    expect(rows).toHaveLength(2); // the original and exactly one successor
    const winner = results.find((r) => r.statusCode === 200)!.json().data;
    expect((await refresh(t.app, winner.refreshToken)).statusCode).toBe(200);
  });

  it('logout answers 204, kills the refresh token, and the access token works until it expires', async () => {
    const { username } = await freshUser();
    const s = await signIn(t.app, username);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: bearer(s.accessToken),
      payload: { refreshToken: s.refreshToken },
    });
    expect(out.statusCode).toBe(204);
    expect(out.body).toBe('');
    expectUnauthorized(await refresh(t.app, s.refreshToken), /revoked/, 'SESSION_ENDED');
    expect((await me(t.app, s.accessToken)).statusCode).toBe(200);
  });

  it('logout with a stale token of the same sign-in still ends that sign-in', async () => {
    const { username } = await freshUser();
    const s = await signIn(t.app, username);
    const rotated = (await refresh(t.app, s.refreshToken)).json().data;
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: bearer(rotated.accessToken),
      payload: { refreshToken: s.refreshToken },
    });
    expectUnauthorized(await refresh(t.app, rotated.refreshToken), /revoked/, 'SESSION_ENDED');
  });

  it('logout cannot revoke another user’s refresh token', async () => {
    const alice = await signIn(t.app, (await freshUser()).username);
    const bob = await signIn(t.app, (await freshUser()).username);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: bearer(alice.accessToken),
      payload: { refreshToken: bob.refreshToken },
    });
    expect(out.statusCode).toBe(204);
    expect((await refresh(t.app, bob.refreshToken)).statusCode).toBe(200);
  });

  it('logout needs a valid access token', async () => {
    const s = await signIn(t.app, (await freshUser()).username);
    expectUnauthorized(
      await t.app.inject({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken: s.refreshToken } }),
      /missing/,
    );
    expect((await refresh(t.app, s.refreshToken)).statusCode).toBe(200);
  });

  it('a password change returns a fresh pair and kills every other token on every device', async () => {
    const { username } = await freshUser();
    const here = await signIn(t.app, username);
    const there = await signIn(t.app, username);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/password',
      headers: bearer(here.accessToken),
      payload: { oldPassword: USER_PASSWORD, newPassword: 'a-brand-new-password' },
    });
    expect(res.statusCode).toBe(200);
    const fresh = res.json().data;
    expect(Object.keys(fresh).sort()).toEqual(['accessToken', 'refreshToken']);
    expect((await me(t.app, fresh.accessToken)).statusCode).toBe(200);
    expect((await refresh(t.app, fresh.refreshToken)).statusCode).toBe(200);

    expectUnauthorized(await me(t.app, here.accessToken), /version mismatch/, 'PASSWORD_CHANGED');
    expectUnauthorized(await me(t.app, there.accessToken), /version mismatch/, 'PASSWORD_CHANGED');
    expectUnauthorized(await refresh(t.app, here.refreshToken), /revoked/, 'PASSWORD_CHANGED');
    expectUnauthorized(await refresh(t.app, there.refreshToken), /revoked/, 'PASSWORD_CHANGED');

    const oldLogin = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username, password: USER_PASSWORD },
    });
    expect(oldLogin.statusCode).toBe(401);
    await signIn(t.app, username, 'a-brand-new-password');
  });

  it('a wrong oldPassword is 400 and changes nothing', async () => {
    const { username } = await freshUser();
    const s = await signIn(t.app, username);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/password',
      headers: bearer(s.accessToken),
      payload: { oldPassword: 'not-my-password', newPassword: 'a-brand-new-password' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'VALIDATION_ERROR', message: expect.stringMatching(/oldPassword/) });
    expect((await me(t.app, s.accessToken)).statusCode).toBe(200);
    expect((await refresh(t.app, s.refreshToken)).statusCode).toBe(200);
    await signIn(t.app, username);
  });

  it('a too-short new password is 400 naming newPassword, without repeating it', async () => {
    const s = await signIn(t.app, (await freshUser()).username);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/password',
      headers: bearer(s.accessToken),
      payload: { oldPassword: USER_PASSWORD, newPassword: 'shrt7' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/newPassword/);
    expect(res.body).not.toContain('shrt7');
    const long = `secret-${'x'.repeat(130)}`;
    const admin = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'admin', password: long },
    });
    expect(admin.statusCode).toBe(400);
    expect(admin.json().message).toMatch(/password/);
    expect(admin.body).not.toContain('secret-');
  });

  it('disabling a user kills their access and refresh tokens on the very next request', async () => {
    const { username, id } = await freshUser();
    const s = await signIn(t.app, username);
    expect((await me(t.app, s.accessToken)).statusCode).toBe(200);
    await t.db.kysely.updateTable('users').set({ status: 'disabled' }).where('id', '=', id).execute();
    expectUnauthorized(await me(t.app, s.accessToken), /disabled/, 'ACCOUNT_DISABLED');
    expectUnauthorized(await refresh(t.app, s.refreshToken), /disabled/, 'ACCOUNT_DISABLED');
  });

  it('deleting a user kills their tokens on the very next request', async () => {
    const { username, id } = await freshUser();
    const s = await signIn(t.app, username);
    expect((await me(t.app, s.accessToken)).statusCode).toBe(200);
    await t.db.kysely.deleteFrom('users').where('id', '=', id).execute();
    expectUnauthorized(await me(t.app, s.accessToken), /no longer exists/, 'SESSION_ENDED');
    expectUnauthorized(await refresh(t.app, s.refreshToken), /not recognised/);
  });

  it('bumping token_version in the database kills both tokens on the very next request', async () => {
    const { username, id } = await freshUser();
    const s = await signIn(t.app, username);
    await t.db.kysely
      .updateTable('users')
      .set((eb) => ({ token_version: eb('token_version', '+', 1) }))
      .where('id', '=', id)
      .execute();
    expectUnauthorized(await me(t.app, s.accessToken), /version mismatch/, 'SESSION_ENDED');
    expectUnauthorized(await refresh(t.app, s.refreshToken), /version mismatch/, 'SESSION_ENDED');
  });

  it('keeps only a SHA-256 hash of each refresh token', async () => {
    const s = await signIn(t.app, (await freshUser()).username);
    const rows = await t.db.kysely.selectFrom('refresh_tokens').select('token_hash').execute();
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true);
    expect(rows.some((r) => r.token_hash === s.refreshToken)).toBe(false);
  });
});
