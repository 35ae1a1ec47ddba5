import { expect, it } from 'vitest';
import { describeEachDb, useTestApp } from './helpers.js';
import { insertUser, signIn } from './auth-fixtures.js';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describeEachDb('own profile (PATCH /api/auth/profile)', (dialect) => {
  const t = useTestApp(dialect);

  it('a signed-in user with no permission edits its own nickname, email and phone; the audit log has before/after', async () => {
    const id = await insertUser(t.db, 'profile1');
    const { accessToken } = await signIn(t.app, 'profile1');
    const empty = await t.app.inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(accessToken) });
    expect(empty.json().data).toEqual({ id, username: 'profile1', nickname: expect.any(String), email: '', phone: '' });
    const before = empty.json().data.nickname;
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/auth/profile',
      headers: bearer(accessToken),
      payload: { nickname: '小张', email: 'zhang@example.com', phone: '+86 138-0013-8000' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ nickname: '小张', email: 'zhang@example.com', phone: '+86 138-0013-8000' });
    const again = await t.app.inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(accessToken) });
    expect(again.json().data.email).toBe('zhang@example.com');
    const row = await t.db.kysely
      .selectFrom('audit_logs')
      .selectAll()
      .where('action', '=', 'auth.update-profile')
      .where('target_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.detail as string)).toEqual({
      username: 'profile1',
      changes: {
        nickname: { from: before, to: '小张' },
        email: { from: '', to: 'zhang@example.com' },
        phone: { from: '', to: '+86 138-0013-8000' },
      },
    });
  });

  it('a malformed email, or an empty body is 400 naming what is allowed, in Chinese', async () => {
    await insertUser(t.db, 'profile2');
    const { accessToken } = await signIn(t.app, 'profile2');
    const patch = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PATCH', url: '/api/auth/profile', headers: bearer(accessToken), payload });
    const bad = await patch({ email: 'not-an-email' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('email');
    expect(bad.json().message).toContain('邮箱地址');
    // Fields that are not one's own to edit are refused, naming the first, and nothing is applied.
    const extra = await patch({ nickname: 'n2', status: 'disabled', username: 'root' });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().message).toBe('参数 status 无效：不支持该参数，可用的参数为 nickname、email、phone');
    const row = await t.db.kysely.selectFrom('users').selectAll().where('username', '=', 'profile2').executeTakeFirst();
    expect(row).toMatchObject({ status: 'enabled', nickname: 'profile2' });
    expect((await patch({})).statusCode).toBe(400);
    // clearing is allowed
    expect((await patch({ phone: '' })).statusCode).toBe(200);
  });

  it('without a session it is 401', async () => {
    const res = await t.app.inject({ method: 'PATCH', url: '/api/auth/profile', payload: { nickname: 'x' } });
    expect(res.statusCode).toBe(401);
  });
});
