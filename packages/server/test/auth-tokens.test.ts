import { beforeAll, expect, it } from 'vitest';
import { SignJWT, generateKeyPair } from 'jose';
import { describeEachDb, useTestApp } from './helpers.js';
import {
  JWT_SECRET,
  SECRET_BYTES,
  decode,
  expectUnauthorized,
  forge,
  insertUser,
  me,
  refresh,
  signIn,
  type Session,
} from './auth-fixtures.js';

/**
 * An attacker holding a valid low-privilege token (or none) tries to get a guarded route to accept something
 * else. Every attempt must end in 401 `{code: 'UNAUTHORIZED', message}` naming what was wrong.
 */
describeEachDb('access token attacks on a guarded route', (dialect) => {
  let session: Session;
  let userId: string;
  let victimId: string;

  /** Signs `payload` with the server's real secret: what a token the server issued would look like. */
  const signReal = (
    payload: Record<string, unknown>,
    header: Record<string, unknown> = decode(session.accessToken).header,
  ) => new SignJWT(payload).setProtectedHeader(header as { alg: string }).sign(SECRET_BYTES);

  const t = useTestApp(dialect, { JWT_SECRET });
  beforeAll(async () => {
    userId = await insertUser(t.db, 'mallory');
    victimId = await insertUser(t.db, 'victim');
    session = await signIn(t.app, 'mallory');
  });

  it('accepts the genuine token (the baseline every attack is compared with)', async () => {
    const res = await me(t.app, session.accessToken);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.id).toBe(userId);
  });

  it('rejects a request without a token, or with another scheme, or with the token in the query string', async () => {
    expectUnauthorized(await t.app.inject({ url: '/api/auth/me' }), /missing/);
    expectUnauthorized(
      await t.app.inject({ url: '/api/auth/me', headers: { authorization: `Basic ${session.accessToken}` } }),
      /malformed Authorization/,
    );
    expectUnauthorized(
      await t.app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${session.accessToken} extra` } }),
      /malformed Authorization/,
    );
    expectUnauthorized(await t.app.inject({ url: `/api/auth/me?access_token=${session.accessToken}` }), /missing/);
  });

  it('rejects an unsigned token (alg "none") carrying the same claims', async () => {
    const { header, payload } = decode(session.accessToken);
    expectUnauthorized(await me(t.app, forge({ ...header, alg: 'none' }, payload, '')), /algorithm not allowed/);
    expectUnauthorized(await me(t.app, forge({ ...header, alg: 'None' }, payload, '')), /algorithm not allowed/);
  });

  it('rejects the token with its signature stripped', async () => {
    const [h, p] = session.accessToken.split('.');
    expectUnauthorized(await me(t.app, `${h}.${p}.`), /signature verification failed/);
    expectUnauthorized(await me(t.app, `${h}.${p}`), /malformed token/);
  });

  it('rejects a token whose sub was changed to another user under the old signature', async () => {
    const { header, payload, signature } = decode(session.accessToken);
    expectUnauthorized(
      await me(t.app, forge(header, { ...payload, sub: victimId }, signature)),
      /signature verification failed/,
    );
  });

  it('rejects a token whose ver or exp was changed under the old signature', async () => {
    const { header, payload, signature } = decode(session.accessToken);
    expectUnauthorized(
      await me(t.app, forge(header, { ...payload, ver: (payload.ver as number) + 1 }, signature)),
      /signature verification failed/,
    );
    expectUnauthorized(
      await me(t.app, forge(header, { ...payload, exp: (payload.exp as number) + 86400 }, signature)),
      /signature verification failed/,
    );
  });

  it('rejects algorithm confusion: RS256 with the attacker’s key, HS384/HS512 with the real secret', async () => {
    const { header, payload } = decode(session.accessToken);
    const { privateKey } = await generateKeyPair('RS256');
    const rs = await new SignJWT(payload).setProtectedHeader({ ...header, alg: 'RS256' }).sign(privateKey);
    expectUnauthorized(await me(t.app, rs), /algorithm not allowed/);
    for (const alg of ['HS384', 'HS512']) {
      expectUnauthorized(await me(t.app, await signReal(payload, { ...header, alg })), /algorithm not allowed/);
    }
  });

  it('rejects a token signed with another deployment’s secret', async () => {
    const { header, payload } = decode(session.accessToken);
    const other = await new SignJWT(payload)
      .setProtectedHeader(header as { alg: string })
      .sign(new TextEncoder().encode('x'.repeat(48)));
    expectUnauthorized(await me(t.app, other), /signature verification failed/);
  });

  it('rejects the refresh token as an access token, and the access token as a refresh token', async () => {
    expectUnauthorized(await me(t.app, session.refreshToken), /invalid access token: a refresh token cannot be used/);
    expectUnauthorized(
      await refresh(t.app, session.accessToken),
      /invalid refresh token: an access token cannot be used/,
    );
    // Neither mix-up burned the genuine pair.
    expect((await me(t.app, session.accessToken)).statusCode).toBe(200);
  });

  it('rejects a refresh token re-signed with the access type header (the audience still tells them apart)', async () => {
    const { header: accessHeader } = decode(session.accessToken);
    const { payload } = decode(session.refreshToken);
    expectUnauthorized(await me(t.app, await signReal(payload, accessHeader)), /refresh token cannot be used/);
  });

  it('rejects an expired token signed with the real key', async () => {
    const { payload } = decode(session.accessToken);
    const past = Math.floor(Date.now() / 1000) - 3600;
    expectUnauthorized(
      await me(t.app, await signReal({ ...payload, iat: past - 900, exp: past })),
      /access token expired/,
      'TOKEN_EXPIRED',
    );
  });

  it('rejects a correctly signed token without a ver claim, or with a non-integer one', async () => {
    const { payload } = decode(session.accessToken);
    const { ver: _ver, ...withoutVer } = payload;
    expectUnauthorized(await me(t.app, await signReal(withoutVer)), /ver claim/);
    expectUnauthorized(await me(t.app, await signReal({ ...payload, ver: '0' })), /ver claim/);
    expectUnauthorized(await me(t.app, await signReal({ ...payload, ver: 0.5 })), /ver claim/);
  });

  it('rejects a correctly signed token whose ver is stale', async () => {
    const { payload } = decode(session.accessToken);
    await t.db.kysely.updateTable('users').set({ token_version: 3 }).where('id', '=', victimId).execute();
    const victimToken = await signReal({ ...payload, sub: victimId, ver: 2 });
    expectUnauthorized(await me(t.app, victimToken), /version mismatch/, 'SESSION_ENDED');
    // A token without a session id (issued before sessions existed) is judged by its version alone.
    expect((await me(t.app, await signReal({ ...payload, sub: victimId, ver: 3, sid: undefined }))).statusCode).toBe(
      200,
    );
    // A session id of another user's session is no session of this user.
    expectUnauthorized(
      await me(t.app, await signReal({ ...payload, sub: victimId, ver: 3 })),
      /session ended/,
      'SESSION_ENDED',
    );
  });

  it('rejects a correctly signed token for a user that does not exist', async () => {
    const { payload } = decode(session.accessToken);
    expectUnauthorized(
      await me(t.app, await signReal({ ...payload, sub: '00000000-0000-4000-8000-000000000000' })),
      /no longer exists/,
      'SESSION_ENDED',
    );
  });

  it('rejects garbage in the token position', async () => {
    for (const junk of ['x', 'a.b.c', '..', `${'A'.repeat(20)}.${'B'.repeat(20)}.${'C'.repeat(20)}`]) {
      expectUnauthorized(await me(t.app, junk), /invalid access token/);
    }
  });

  it('reads the Bearer scheme case-insensitively', async () => {
    const res = await t.app.inject({
      url: '/api/auth/me',
      headers: { authorization: `bearer ${session.accessToken}` },
    });
    expect(res.statusCode).toBe(200);
  });
});
