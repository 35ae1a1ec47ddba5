import { beforeAll, expect, it } from 'vitest';
import { bearer, describeEachDb, useTestApp, login } from './helpers.js';
import { adminCall, as, createRole, createUser, PASSWORD, roleId, type Call } from './admin-fixtures.js';

describeEachDb('users administration', (dialect) => {
  const t = useTestApp(dialect);
  let admin: Call;
  let adminId: string;
  beforeAll(async () => {
    admin = await adminCall(t.app);
    adminId = (await login(t.app)).user.id;
  });

  it('creates a user and shows it with its roles, never its password', async () => {
    const role = await createRole(admin, 'editor');
    const res = await admin('POST', '/api/users', {
      username: 'li.si',
      nickname: '李四',
      password: PASSWORD,
      roleIds: [role],
    });
    expect(res.statusCode).toBe(201);
    const user = res.json().data;
    expect(user).toMatchObject({
      username: 'li.si',
      nickname: '李四',
      status: 'enabled',
      roles: [{ id: role, code: 'editor', name: '角色 editor' }],
    });
    expect(Object.keys(user).sort()).toEqual([
      'createdAt',
      'id',
      'nickname',
      'passkeys',
      'roles',
      'status',
      'totpEnabled',
      'updatedAt',
      'username',
    ]);
    expect(res.body).not.toContain('password');
    const got = await admin('GET', `/api/users/${user.id}`);
    expect(got.json().data).toEqual(user);
    // The new user can sign in with the password given.
    expect((await login(t.app, 'li.si', PASSWORD)).user.id).toBe(user.id);
  });

  it('refuses a taken username with 409 CONFLICT', async () => {
    const res = await admin('POST', '/api/users', { username: 'admin', password: PASSWORD });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: 'CONFLICT',
      message: '参数 username 无效：用户名已被使用（比较时不区分大小写、全角半角），请换一个，收到 "admin"',
    });
  });

  it('names the field in validation errors', async () => {
    const cases: Array<[unknown, string]> = [
      [{ username: 'ab', password: PASSWORD }, 'username'],
      [{ username: 'has space', password: PASSWORD }, 'username'],
      [{ username: 'okname', password: 'short' }, 'password'],
      [{ password: PASSWORD }, 'username'],
      [{ username: 'okname', password: PASSWORD, status: 'gone' }, 'status'],
      [{ username: 'okname', password: PASSWORD, roleIds: ['not-a-uuid'] }, 'roleIds'],
      [{ username: 'okname', password: PASSWORD, roleIds: ['00000000-0000-4000-8000-000000000000'] }, 'roleIds'],
    ];
    for (const [body, field] of cases) {
      const res = await admin('POST', '/api/users', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
      expect(res.json().message).toContain(`参数 ${field}`);
    }
    const page = await admin('GET', '/api/users?pageSize=101');
    expect(page.statusCode).toBe(400);
    expect(page.json().message).toContain('pageSize');
    expect((await admin('GET', '/api/users?page=0')).json().message).toContain('page');
    expect((await admin('GET', '/api/users/not-a-uuid')).json().message).toContain('参数 id');
  });

  it('pages, searches username and nickname case-insensitively, and filters by status', async () => {
    for (let i = 0; i < 5; i++)
      await createUser(admin, `pager_${i}`, [], { nickname: i === 3 ? '王五' : `Pager ${i}` });
    await createUser(admin, 'pager_off', [], { status: 'disabled' });
    const p1 = (await admin('GET', '/api/users?keyword=PAGER&pageSize=4')).json().data;
    expect(p1.total).toBe(6);
    expect(p1.items).toHaveLength(4);
    expect(p1).toMatchObject({ page: 1, pageSize: 4 });
    const p2 = (await admin('GET', '/api/users?keyword=pager&pageSize=4&page=2')).json().data;
    expect(p2.items).toHaveLength(2);
    const seen = [...p1.items, ...p2.items].map((u: { username: string }) => u.username);
    expect(new Set(seen).size).toBe(6);
    const byNick = (await admin('GET', `/api/users?keyword=${encodeURIComponent('王')}`)).json().data;
    expect(byNick.items.map((u: { username: string }) => u.username)).toEqual(['pager_3']);
    const disabled = (await admin('GET', '/api/users?keyword=pager&status=disabled')).json().data;
    expect(disabled.items.map((u: { username: string }) => u.username)).toEqual(['pager_off']);
    // % and _ in a keyword match literally.
    expect((await admin('GET', '/api/users?keyword=%25')).json().data.total).toBe(0);
    expect((await admin('GET', '/api/users')).json().data.pageSize).toBe(20);
  });

  it('edits username, nickname and status; a taken username is 409', async () => {
    const id = await createUser(admin, 'to_edit');
    const res = await admin('PATCH', `/api/users/${id}`, { username: 'edited', nickname: '改过' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ username: 'edited', nickname: '改过', status: 'enabled' });
    expect((await admin('PATCH', `/api/users/${id}`, { username: 'admin' })).statusCode).toBe(409);
    expect(
      (await admin('PATCH', `/api/users/00000000-0000-4000-8000-000000000000`, { nickname: 'x' })).statusCode,
    ).toBe(404);
    const empty = await admin('PATCH', `/api/users/${id}`, {});
    expect(empty.statusCode).toBe(400);
  });

  it('disabling a user ends their sessions at once; re-enabling lets them sign in again', async () => {
    const id = await createUser(admin, 'to_disable');
    const session = await login(t.app, 'to_disable', PASSWORD);
    expect((await t.app.inject({ url: '/api/auth/me', headers: bearer(session.accessToken) })).statusCode).toBe(200);
    expect((await admin('PATCH', `/api/users/${id}`, { status: 'disabled' })).json().data.status).toBe('disabled');
    expect((await t.app.inject({ url: '/api/auth/me', headers: bearer(session.accessToken) })).statusCode).toBe(401);
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refreshToken: session.refreshToken },
    });
    expect(refresh.statusCode).toBe(401);
    await admin('PATCH', `/api/users/${id}`, { status: 'enabled' });
    const again = await login(t.app, 'to_disable', PASSWORD);
    expect((await t.app.inject({ url: '/api/auth/me', headers: bearer(again.accessToken) })).statusCode).toBe(200);
  });

  it('refuses to let you delete or disable your own account', async () => {
    // A second super administrator exists, so only the self rule applies.
    const other = await createUser(admin, 'second_super', [await roleId(admin, 'super_admin')]);
    const del = await admin('DELETE', `/api/users/${adminId}`);
    expect(del.statusCode).toBe(409);
    expect(del.json()).toEqual({
      code: 'CONFLICT',
      message: '不能删除自己的账号 (you cannot delete your own account)',
    });
    expect((await admin('PATCH', `/api/users/${adminId}`, { status: 'disabled' })).json().code).toBe('CONFLICT');
    const plain = await createUser(admin, 'plain_user');
    expect((await admin('POST', '/api/users/batch-delete', { ids: [plain, adminId] })).json().code).toBe('CONFLICT');
    // All or nothing: the other user survived the refused batch.
    expect((await admin('GET', `/api/users/${plain}`)).statusCode).toBe(200);
    expect((await admin('DELETE', `/api/users/${other}`)).statusCode).toBe(204);
  });

  it('resets a password: the old one and every old token stop working; the audit row holds no password', async () => {
    const id = await createUser(admin, 'forgetful');
    const old = await login(t.app, 'forgetful', PASSWORD);
    const res = await admin('POST', `/api/users/${id}/reset-password`, { password: 'brand-new-secret' });
    expect(res.statusCode).toBe(204);
    expect((await t.app.inject({ url: '/api/auth/me', headers: bearer(old.accessToken) })).statusCode).toBe(401);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: 'forgetful', password: PASSWORD },
        })
      ).statusCode,
    ).toBe(401);
    await login(t.app, 'forgetful', 'brand-new-secret');
    const audit = await admin('GET', `/api/audit-logs?action=user.reset-password`);
    expect(audit.json().data.items[0]).toMatchObject({
      action: 'user.reset-password',
      targetId: id,
      actorUsername: 'admin',
      detail: { username: 'forgetful' },
    });
    const everything = await admin('GET', '/api/audit-logs?pageSize=100');
    expect(everything.body).not.toContain('brand-new-secret');
    expect(everything.body).not.toContain(PASSWORD);
    expect((await admin('POST', `/api/users/${id}/reset-password`, { password: 'short' })).json().message).toContain(
      'password',
    );
  });

  it('replaces the roles of a user; the new mask applies on their next request', async () => {
    const viewer = await createRole(admin, 'user_viewer', { 'system:user': 1 });
    const id = await createUser(admin, 'promoted');
    const me = as(t.app, (await login(t.app, 'promoted', PASSWORD)).accessToken);
    expect((await me('GET', '/api/users')).statusCode).toBe(403);
    const res = await admin('PUT', `/api/users/${id}/roles`, { roleIds: [viewer, viewer] });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.roles.map((r: { code: string }) => r.code)).toEqual(['user_viewer']);
    expect((await me('GET', '/api/users')).statusCode).toBe(200);
    expect((await admin('PUT', `/api/users/${id}/roles`, { roleIds: [] })).json().data.roles).toEqual([]);
    expect((await me('GET', '/api/users')).statusCode).toBe(403);
    const bad = await admin('PUT', `/api/users/${id}/roles`, { roleIds: ['00000000-0000-4000-8000-000000000000'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('roleIds');
  });

  it('deletes one user (404 after) and several at once', async () => {
    const one = await createUser(admin, 'del_one');
    expect((await admin('DELETE', `/api/users/${one}`)).statusCode).toBe(204);
    const gone = await admin('GET', `/api/users/${one}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ code: 'NOT_FOUND', message: '用户不存在 (user not found)' });
    expect((await admin('DELETE', `/api/users/${one}`)).statusCode).toBe(404);
    const a = await createUser(admin, 'del_a');
    const b = await createUser(admin, 'del_b');
    const res = await admin('POST', '/api/users/batch-delete', { ids: [a, b, b, one] });
    expect(res.json()).toEqual({ data: { deleted: 2 } });
    expect((await admin('POST', '/api/users/batch-delete', { ids: [] })).json().message).toContain('ids');
    const tooMany = Array.from({ length: 101 }, () => '00000000-0000-4000-8000-000000000000');
    expect((await admin('POST', '/api/users/batch-delete', { ids: tooMany })).statusCode).toBe(400);
    const audit = (await admin('GET', '/api/audit-logs?action=user.batch-delete')).json().data.items[0];
    expect(audit.detail.usernames.sort()).toEqual(['del_a', 'del_b']);
  });

  it('exports CSV with a BOM; Chinese text survives and filters apply', async () => {
    await createUser(admin, 'csv_user', [], { nickname: '导出测试, 含逗号' });
    const res = await admin('GET', '/api/users/export?keyword=csv_');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      new RegExp(
        `^attachment; filename="users-\\d{4}-\\d{2}-\\d{2}\\.csv"; filename\\*=UTF-8''${encodeURIComponent('用户-')}\\d{4}-\\d{2}-\\d{2}\\.csv$`,
      ),
    );
    const raw = res.rawPayload;
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = raw
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('用户编号,用户名,昵称,状态,角色,两步验证,创建时间,更新时间');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('csv_user,"导出测试, 含逗号",启用,,否,');
  });

  it('writes an audit row for each write, inside the same transaction', async () => {
    const id = await createUser(admin, 'audited', [], { nickname: '审计' });
    await admin('PATCH', `/api/users/${id}`, { nickname: '审计2' });
    await admin('DELETE', `/api/users/${id}`);
    const rows = (await admin('GET', `/api/audit-logs?keyword=${id}`)).json().data.items;
    expect(rows.map((r: { action: string }) => r.action)).toEqual(['user.delete', 'user.update', 'user.create']);
    expect(rows[1].detail).toEqual({ username: 'audited', changes: { nickname: { from: '审计', to: '审计2' } } });
    expect(rows.every((r: { actorId: string; ip: string }) => r.actorId === adminId && r.ip)).toBe(true);
    // A refused write leaves no audit row.
    await admin('POST', '/api/users', { username: 'admin', password: PASSWORD });
    expect(
      (await admin('GET', '/api/audit-logs?action=user.create&keyword=admin'))
        .json()
        .data.items.filter((r: { detail: { username: string } }) => r.detail.username === 'admin'),
    ).toEqual([]);
  });
});
