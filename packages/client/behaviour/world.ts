/**
 * The real server the scenarios run against, and what happens around the client under test: an operator acting in
 * the admin API, another device changing the password, a thief using the refresh token. buildApp on a fresh
 * in-memory SQLite listening on 127.0.0.1, access tokens living ACCESS_TTL_S seconds, and a counter of the refresh
 * requests the server answers (a wrapper around the route's handler).
 */
import type { AddressInfo } from 'node:net';
import { adminCall, createRole, createUser, PASSWORD, setGrants } from '../../server/test/admin-fixtures.js';
import { getTestInstance, type TestInstance } from '../../server/test/helpers.js';
import { ageSessions } from '../../server/test/reauth-fixtures.js';
import * as OTPAuth from 'otpauth';
import { createSession } from '../src/index.js';

/**
 * Long enough that the token one refresh brings is still valid when the last of three concurrent actions uses it:
 * at 4 s, three Chromium tabs on a slow 2-core machine once took longer, and a second, legitimate refresh failed the
 * one-refresh scenario.
 */
export const ACCESS_TTL_S = 10;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface ScenarioUser {
  id: string;
  username: string;
  password: string;
  roleId: string;
}

export interface World {
  baseUrl: string;
  t: TestInstance;
  /** Refresh requests the server has answered so far. */
  refreshes(): number;
  /**
   * A user holding one new role with `grants` (menu code → bits). With `mustChangePassword` the user keeps the flag
   * an operator-created account starts with (the fixtures clear it otherwise).
   */
  user(prefix: string, grants?: Record<string, number>, opts?: { mustChangePassword?: boolean }): Promise<ScenarioUser>;
  /**
   * The user turns on TOTP (setup and enable through an SDK session of their own). Returns the authenticator: each
   * call gives a code the server has not accepted yet (this step's, the next step's, then a recovery code).
   */
  enrolTotp(user: ScenarioUser): Promise<() => string>;
  /** An authenticator app holding `secret`: each call gives a code of the server's clock not handed out yet, or null. */
  authenticator(secret: string): () => string | null;
  /** Every open session of the user now looks signed in 11 minutes ago: enrolling TOTP from it asks for a proof. */
  ageSessions(user: ScenarioUser): Promise<void>;
  /** The operator makes the user's role require two-step sign-in (要求两步验证). */
  requireTwoStep(user: ScenarioUser): Promise<void>;
  /** The user, signed in on a browser of their own (an SDK session), approves or refuses a device's code. */
  decideDevice(user: ScenarioUser, userCode: string, verdict: 'approve' | 'deny'): Promise<void>;
  /** True once the user's TOTP is enabled (read from the database). */
  totpEnabled(user: ScenarioUser): Promise<boolean>;
  setGrants(user: ScenarioUser, grants: Record<string, number>): Promise<void>;
  /** The operator ends every live session of the user (menu 在线会话). */
  endSessions(user: ScenarioUser): Promise<number>;
  forceLogout(user: ScenarioUser): Promise<void>;
  disable(user: ScenarioUser): Promise<void>;
  /** The user changes the password on another client (an SDK session of its own). */
  changePasswordElsewhere(user: ScenarioUser, newPassword: string): Promise<void>;
  /** Someone else presents the refresh token first; after the grace window, so the client's own use is a replay. */
  stealRefreshToken(token: string): Promise<void>;
  /** Waits until every access token issued so far has expired for the server too. */
  waitForAccessExpiry(): Promise<void>;
  close(): Promise<void>;
}

export async function startWorld(): Promise<World> {
  let refreshes = 0;
  let clockOffset = 0;
  const t = await getTestInstance(
    'sqlite',
    { ACCESS_TOKEN_TTL: `${ACCESS_TTL_S}s` },
    {
      now: () => Date.now() + clockOffset,
      onRoute: (route) => {
        if (route.url !== '/api/auth/refresh') return;
        const handler = route.handler;
        route.handler = function (req, reply) {
          refreshes++;
          return handler.call(this, req, reply);
        };
      },
    },
  );
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  // By host name: passkeys refuse an IP address as their RP ID (localhost is one of TRUSTED_HOSTS).
  const baseUrl = `http://localhost:${(t.app.server.address() as AddressInfo).port}`;
  const suffix = Math.random().toString(36).slice(2, 7);
  // A fresh administrator token per call: tokens live only ACCESS_TTL_S seconds here.
  const admin = () => adminCall(t.app);
  const check = <R extends { statusCode: number; body: string }>(res: R, what: string): R => {
    if (res.statusCode >= 300) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
    return res;
  };

  function authenticator(secret: string) {
    const totp = new OTPAuth.TOTP({
      secret: OTPAuth.Secret.fromBase32(secret),
      digits: 6,
      period: 30,
      algorithm: 'SHA1',
    });
    // The server accepts each step's code once and the neighbouring steps (±30 s): hand out steps not used yet.
    let lastStep = -1;
    return (): string | null => {
      const now = Math.floor((Date.now() + clockOffset) / 30_000); // the server's clock (see stealRefreshToken)
      const step = Math.max(now, lastStep + 1);
      if (step > now + 1) return null;
      lastStep = step;
      return totp.generate({ timestamp: step * 30_000 });
    };
  }

  return {
    baseUrl,
    t,
    refreshes: () => refreshes,
    authenticator,
    ageSessions: (user) => ageSessions(t.db, user.username, 11 * 60_000 + clockOffset),
    async requireTwoStep(user) {
      check(await (await admin())('PATCH', `/api/roles/${user.roleId}`, { requireTotp: true }), 'require 2FA');
    },
    async decideDevice(user, userCode, verdict) {
      const own = createSession({ baseUrl });
      await own.login(user.username, user.password);
      const path = { params: { path: { userCode } } };
      const res =
        verdict === 'approve'
          ? await own.api.POST('/api/auth/device/requests/{userCode}/approve', path)
          : await own.api.POST('/api/auth/device/requests/{userCode}/deny', path);
      own.close();
      if (!res.response.ok) throw new Error(`${verdict} ${userCode}: ${res.response.status}`);
    },
    async totpEnabled(user) {
      const row = await t.db.kysely
        .selectFrom('users')
        .select('totp_enabled_at')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      return row.totp_enabled_at !== null;
    },
    async user(prefix, grants = {}, opts = {}) {
      const call = await admin();
      const username = `${prefix}-${suffix}`;
      const roleId = await createRole(call, `r_${prefix.replace(/\W/g, '_')}_${suffix}`, grants);
      const id = opts.mustChangePassword
        ? (
            check(
              await call('POST', '/api/users', { username, password: PASSWORD, roleIds: [roleId] }),
              'create user',
            ).json() as { data: { id: string } }
          ).data.id
        : await createUser(call, username, [roleId]);
      return { id, username, password: PASSWORD, roleId };
    },
    async enrolTotp(user) {
      const own = createSession({ baseUrl });
      await own.login(user.username, user.password);
      const setup = await own.api.POST('/api/auth/totp/setup');
      if (!setup.data) throw new Error(`TOTP setup: ${setup.response.status}`);
      const next = authenticator(setup.data.data.secret);
      const enabled = await own.api.POST('/api/auth/totp/enable', { body: { code: next()! } });
      if (!enabled.data) throw new Error(`TOTP enable: ${enabled.response.status}`);
      const recovery = [...enabled.data.data.recoveryCodes];
      own.close();
      return () => {
        const code = next() ?? recovery.shift();
        if (!code) throw new Error('no TOTP code left in this step');
        return code;
      };
    },
    async setGrants(user, grants) {
      await setGrants(await admin(), user.roleId, grants);
    },
    async endSessions(user) {
      const call = await admin();
      const list = check(await call('GET', `/api/sessions?userId=${user.id}&pageSize=100`), 'list sessions');
      const items = (list.json() as { data: { items: Array<{ id: string }> } }).data.items;
      for (const s of items) check(await call('DELETE', `/api/sessions/${s.id}`), 'end session');
      return items.length;
    },
    async forceLogout(user) {
      check(await (await admin())('POST', `/api/users/${user.id}/force-logout`), 'force-logout');
    },
    async disable(user) {
      check(await (await admin())('PATCH', `/api/users/${user.id}`, { status: 'disabled' }), 'disable');
    },
    async changePasswordElsewhere(user, newPassword) {
      const other = createSession({ baseUrl });
      await other.login(user.username, user.password);
      await other.changePassword(user.password, newPassword);
      other.close();
      user.password = newPassword;
    },
    async stealRefreshToken(token) {
      const res = await fetch(`${baseUrl}/api/auth/refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refreshToken: token }),
      });
      if (res.status !== 200) throw new Error(`the thief's refresh failed: ${res.status}`);
      clockOffset += 60_000; // past REFRESH_REUSE_GRACE: the owner's next refresh is a replay, not a lost race
    },
    waitForAccessExpiry: () => sleep(ACCESS_TTL_S * 1000 + 300),
    close: () => t.close(),
  };
}
