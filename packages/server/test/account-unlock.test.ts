import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeEachDb, getTestInstance, login, type TestInstance } from './helpers.js';
import { adminCall, as, createRole, createUser, PASSWORD, userWithGrants, type Call } from './admin-fixtures.js';
import { totpCode } from '../src/admin/auth/totp.js';
import { SECOND_STEP_MAX_FAILURES } from '../src/admin/auth/throttle.js';

const USERS = 'system:user';
const SEARCH = 1;
const RESET = 64;
const RESET_PASSWORD = 128;

/** An operator's 解锁 and 重置两步验证 on the users page: POST /api/users/{id}/unlock and /reset-totp. */
describeEachDb('unlocking a user and resetting their two-step sign-in', (dialect) => {
  let t: TestInstance;
  let admin: Call;
  let adminId: string;
  /** The server's clock, frozen mid-step and moved on by whole steps, so each TOTP code is fresh. */
  let clock = Math.floor(Date.now() / 30_000) * 30_000 + 15_000;
  const nextStep = () => (clock += 30_000 * 5);
  let n = 0;

  const signIn = (username: string, password = PASSWORD, remoteAddress = '192.0.2.10') =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password }, remoteAddress });
  const second = (mfaToken: string, code: string, remoteAddress = '192.0.2.10') =>
    t.app.inject({ method: 'POST', url: '/api/auth/login/totp', payload: { mfaToken, code }, remoteAddress });

  /** A user without roles, signed in, with TOTP enabled. */
  async function enrolled() {
    const username = `mfa_user${++n}`;
    const id = await createUser(admin, username);
    const s = as(t.app, (await signIn(username)).json().data.accessToken);
    const { secret } = (await s('POST', '/api/auth/totp/setup')).json().data;
    const enable = await s('POST', '/api/auth/totp/enable', { code: totpCode(secret, clock) });
    expect(enable.statusCode, enable.body).toBe(200);
    nextStep();
    return { id, username, secret, session: s };
  }

  const auditRows = (action: string, targetId: string) =>
    t.db.kysely
      .selectFrom('audit_logs')
      .select(['actor_id', 'detail'])
      .where('action', '=', action)
      .where('target_id', '=', targetId)
      .execute();

  beforeAll(async () => {
    t = await getTestInstance(dialect, { LOGIN_MAX_FAILURES: '3' }, { now: () => clock });
    admin = await adminCall(t.app);
    adminId = (await login(t.app)).user.id;
  });
  afterAll(() => t.close());
  beforeEach(() => nextStep());

  it('unlock lets a username locked by wrong passwords sign in again at once, and is audited', async () => {
    const id = await createUser(admin, 'locked_out');
    for (let i = 0; i < 3; i++) expect((await signIn('locked_out', 'wrong-password-1')).statusCode).toBe(401);
    expect((await signIn('locked_out')).statusCode).toBe(429);
    const res = await admin('POST', `/api/users/${id}/unlock`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.cleared).toBeGreaterThan(0);
    expect((await signIn('locked_out')).statusCode).toBe(200);
    const [row] = await auditRows('user.unlock', id);
    expect(row.actor_id).toBe(adminId);
    expect(JSON.parse(row.detail as string)).toMatchObject({ username: 'locked_out' });
  });

  it('unlock lifts the lock of the second step (too many wrong codes from many addresses)', async () => {
    const u = await enrolled();
    for (let i = 0; i < SECOND_STEP_MAX_FAILURES; i++) {
      const from = `198.51.100.${i + 1}`;
      const token = (await signIn(u.username, PASSWORD, from)).json().data.mfaToken;
      expect((await second(token, '000000', from)).statusCode).toBe(401);
    }
    const token = () => signIn(u.username, PASSWORD, '203.0.113.5').then((r) => r.json().data.mfaToken as string);
    const locked = await second(await token(), totpCode(u.secret, clock), '203.0.113.5');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toMatch(/^两步验证码错误次数过多/);
    expect((await admin('POST', `/api/users/${u.id}/unlock`)).statusCode).toBe(200);
    const ok = await second(await token(), totpCode(u.secret, clock), '203.0.113.5');
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('reset-totp removes the secret and recovery codes and ends the user’s sessions; audited; 409 when none', async () => {
    const u = await enrolled();
    expect((await admin('GET', `/api/users/${u.id}`)).json().data.totpEnabled).toBe(true);
    const res = await admin('POST', `/api/users/${u.id}/reset-totp`);
    expect(res.statusCode, res.body).toBe(204);
    const old = await u.session('GET', '/api/auth/me');
    expect(old.statusCode).toBe(401);
    expect(old.json().code).toBe('FORCED_LOGOUT');
    // The password alone signs in now; no code is asked.
    expect(Object.keys((await signIn(u.username)).json().data)).toContain('accessToken');
    const codes = await t.db.kysely.selectFrom('mfa_recovery_codes').select('id').where('user_id', '=', u.id).execute();
    expect(codes).toEqual([]);
    expect((await admin('GET', `/api/users/${u.id}`)).json().data.totpEnabled).toBe(false);
    expect(await auditRows('user.reset-totp', u.id)).toHaveLength(1);
    const again = await admin('POST', `/api/users/${u.id}/reset-totp`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('没有启用两步验证');
  });

  it('nobody resets their own two-step sign-in this way (profile asks for proof)', async () => {
    const res = await admin('POST', `/api/users/${adminId}/reset-totp`);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('PRIVILEGE_ESCALATION');
  });

  describe('a delegated operator', () => {
    it('lacking the point gets 403 FORBIDDEN, and nothing changes', async () => {
      const u = await enrolled();
      const op = await userWithGrants(t.app, admin, `viewer${n}`, { [USERS]: SEARCH });
      expect((await op.call('POST', `/api/users/${u.id}/unlock`)).statusCode).toBe(403);
      const reset = await op.call('POST', `/api/users/${u.id}/reset-totp`);
      expect(reset.statusCode).toBe(403);
      expect(reset.json().code).toBe('FORBIDDEN');
      expect((await admin('GET', `/api/users/${u.id}`)).json().data.totpEnabled).toBe(true);
      // RESET alone does not reset a credential; RESET_PASSWORD alone does not unlock.
      const unlocker = await userWithGrants(t.app, admin, `unlocker${n}`, { [USERS]: SEARCH | RESET });
      expect((await unlocker.call('POST', `/api/users/${u.id}/unlock`)).statusCode).toBe(200);
      expect((await unlocker.call('POST', `/api/users/${u.id}/reset-totp`)).statusCode).toBe(403);
      const resetter = await userWithGrants(t.app, admin, `resetter${n}`, { [USERS]: SEARCH | RESET_PASSWORD });
      expect((await resetter.call('POST', `/api/users/${u.id}/unlock`)).statusCode).toBe(403);
      expect((await resetter.call('POST', `/api/users/${u.id}/reset-totp`)).statusCode).toBe(204);
    });

    it('holding both points is refused on a super administrator and on a user holding more', async () => {
      const op = await userWithGrants(t.app, admin, `helpdesk${n}`, { [USERS]: SEARCH | RESET | RESET_PASSWORD });
      for (const action of ['unlock', 'reset-totp']) {
        const res = await op.call('POST', `/api/users/${adminId}/${action}`);
        expect(res.statusCode, `${action} ${res.body}`).toBe(403);
      }
      const auditor = await createRole(admin, `auditor${n}`, { 'system:audit': SEARCH });
      const u = await enrolled();
      expect((await admin('PUT', `/api/users/${u.id}/roles`, { roleIds: [auditor] })).statusCode).toBe(200);
      for (const action of ['unlock', 'reset-totp']) {
        const res = await op.call('POST', `/api/users/${u.id}/${action}`);
        expect(res.statusCode, `${action} ${res.body}`).toBe(403);
        expect(res.json().code).toBe('PRIVILEGE_ESCALATION');
        expect(res.json().message).toContain(`用户「${u.username}」拥有你没有的权限`);
      }
      expect((await admin('GET', `/api/users/${u.id}`)).json().data.totpEnabled).toBe(true);
      // A user it covers: both work.
      const plain = await enrolled();
      expect((await op.call('POST', `/api/users/${plain.id}/unlock`)).statusCode).toBe(200);
      expect((await op.call('POST', `/api/users/${plain.id}/reset-totp`)).statusCode).toBe(204);
      expect(await auditRows('user.reset-totp', plain.id)).toEqual([expect.objectContaining({ actor_id: op.id })]);
    });
  });
});
