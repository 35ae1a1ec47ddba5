/**
 * The sign-in's `securityNotice` through the SDK, against a real server: after wrong second-step codes the session
 * holds the server's sentence and calls `onSecurityNotice` once; a sign-out forgets it and the next sign-in has none.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestInstance, type TestInstance } from '../../server/test/helpers.js';
import { USER_PASSWORD } from '../../server/test/auth-fixtures.js';
import { enrolledUser, wrongSecondStepCodes } from '../../server/test/totp-fixtures.js';
import { totpCode } from '../../server/src/admin/auth/totp.js';
import { MfaRequiredError, createSession, type TianjiSession } from '../src/index.js';

describe('securityNotice of a sign-in (SDK)', () => {
  let t: TestInstance;
  let baseUrl: string;
  beforeAll(async () => {
    t = await getTestInstance('sqlite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t?.close());

  async function signIn(session: TianjiSession, username: string, code: string) {
    const challenge = await session.login(username, USER_PASSWORD).catch((e: unknown) => e);
    expect(challenge).toBeInstanceOf(MfaRequiredError);
    return session.loginTotp((challenge as MfaRequiredError).mfaToken, code);
  }

  it('after wrong codes: on the session and passed to onSecurityNotice once; gone after sign-out and at the next sign-in', async () => {
    const u = await enrolledUser(t.app, t.db, 'sdk_notice');
    await wrongSecondStepCodes(t.app, u.username, 3);
    const told: string[] = [];
    const session = createSession({ baseUrl, onSecurityNotice: (notice) => told.push(notice) });

    const me = await signIn(session, u.username, totpCode(u.secret, Date.now()));
    expect(me.username).toBe(u.username);
    expect(session.securityNotice).toMatch(/^自上次登录以来，你的账号有 3 次两步验证码输入错误。/);
    expect(told).toEqual([session.securityNotice]);

    await session.logout();
    expect(session.securityNotice).toBeNull();
    await signIn(session, u.username, u.recoveryCodes[0]);
    expect(session.securityNotice).toBeNull();
    expect(told).toHaveLength(1);
    session.close();
  });
});
