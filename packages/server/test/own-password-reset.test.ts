import { beforeAll, expect, it } from 'vitest';
import { ADMIN, describeEachDb, login, useTestApp } from './helpers.js';
import { adminCall, as, PASSWORD, userWithGrants, type Call } from './admin-fixtures.js';

/** Issue 26: an access token alone must not set its own account's password; that takes the current one. */
describeEachDb('resetting one’s own password is refused', (dialect) => {
  const t = useTestApp(dialect);
  let admin: Call;
  beforeAll(async () => {
    admin = await adminCall(t.app);
  });

  const signIn = (username: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });

  const refusedForSelf = (res: { statusCode: number; body: string; json(): { code: string; message: string } }) => {
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().code).toBe('PRIVILEGE_ESCALATION');
    expect(res.json().message).toContain('不能用重置密码修改自己的密码');
    expect(res.json().message).toContain('PUT /api/auth/password');
  };

  it('a stolen super administrator token cannot set the account’s password', async () => {
    const { user, accessToken } = await login(t.app);
    const thief = as(t.app, accessToken);
    refusedForSelf(await thief('POST', `/api/users/${user.id}/reset-password`, { password: 'thief-owns-it-789' }));
    expect((await signIn(ADMIN.username, 'thief-owns-it-789')).statusCode).toBe(401);
    expect((await signIn(ADMIN.username, ADMIN.password)).statusCode).toBe(200);
    // The session the token belongs to is untouched (a reset would have ended it).
    expect((await thief('GET', '/api/auth/me')).statusCode).toBe(200);
  });

  it('an operator with RESET_PASSWORD cannot reset their own, whatever the password, and keeps the way that asks', async () => {
    const op = await userWithGrants(t.app, admin, 'self_resetter', { 'system:user': 1 | 128 });
    // Refused before the policy check: no advice about a password that cannot be set this way.
    refusedForSelf(await op.call('POST', `/api/users/${op.id}/reset-password`, { password: 'x' }));
    refusedForSelf(await op.call('POST', `/api/users/${op.id}/reset-password`, { password: 'operator-new-321' }));
    expect((await signIn('self_resetter', 'operator-new-321')).statusCode).toBe(401);
    const audit = (await admin('GET', '/api/audit-logs?action=user.reset-password&pageSize=100')).json().data;
    expect(audit.items.filter((a: { targetId: string }) => a.targetId === op.id)).toEqual([]);
    const changed = await op.call('PUT', '/api/auth/password', {
      oldPassword: PASSWORD,
      newPassword: 'operator-new-321',
    });
    expect(changed.statusCode, changed.body).toBeLessThan(300);
    expect((await signIn('self_resetter', 'operator-new-321')).statusCode).toBe(200);
  });

  it('resetting someone else still works and still makes them choose their own', async () => {
    const other = await userWithGrants(t.app, admin, 'reset_target', { 'system:user': 1 });
    expect(
      (await admin('POST', `/api/users/${other.id}/reset-password`, { password: 'operator-chose-654' })).statusCode,
    ).toBe(204);
    const res = await signIn('reset_target', 'operator-chose-654');
    expect(res.json().data.mustChangePassword).toBe(true);
  });
});
