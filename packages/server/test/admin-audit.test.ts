import { beforeAll, expect, it } from 'vitest';
import { describeEachDb, useTestApp, login } from './helpers.js';
import { recordAudit } from '../src/admin/audit/recorder.js';
import { timeWindow } from '../src/admin/audit/repository.js';
import { adminCall, createRole, createUser, PASSWORD, type Call } from './admin-fixtures.js';

interface Entry {
  id: string;
  actorId: string | null;
  actorUsername: string;
  action: string;
  targetType: string;
  targetId: string | null;
  targetName: string;
  detail: Record<string, unknown>;
  ip: string;
  createdAt: string;
}

describeEachDb('audit log', (dialect) => {
  const t = useTestApp(dialect);
  let admin: Call;
  let adminId: string;
  let started: string;
  beforeAll(async () => {
    admin = await adminCall(t.app);
    adminId = (await login(t.app)).user.id;
    started = new Date().toISOString();
    const role = await createRole(admin, 'watcher', { 'system:audit': 1 });
    await createUser(admin, 'audit_a', [role], { nickname: '甲' });
    await createUser(admin, 'audit_b');
  });

  const list = async (query: string) => {
    const res = await admin('GET', `/api/audit-logs?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { items: Entry[]; total: number; page: number; pageSize: number };
  };

  it('lists who did what to which record, when and from where, newest first', async () => {
    const page = await list('pageSize=100');
    const creates = page.items.filter((e) => e.action === 'user.create');
    expect(creates.map((e) => e.detail.username)).toEqual(['audit_b', 'audit_a']);
    expect(creates[1]).toMatchObject({
      actorId: adminId,
      actorUsername: 'admin',
      targetType: 'user',
      ip: '127.0.0.1',
      detail: { nickname: '甲', status: 'enabled' },
    });
    expect(creates[1].createdAt >= started).toBe(true);
    const times = page.items.map((e) => e.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('pages the results', async () => {
    const all = await list('pageSize=100');
    const p1 = await list('pageSize=2&page=1');
    const p2 = await list('pageSize=2&page=2');
    expect(p1).toMatchObject({ total: all.total, page: 1, pageSize: 2 });
    expect([...p1.items, ...p2.items].map((e) => e.id)).toEqual(all.items.slice(0, 4).map((e) => e.id));
  });

  it('filters by action, actor, keyword and time window', async () => {
    expect((await list('action=role.set-grants')).items.map((e) => e.detail.code)).toEqual(['watcher']);
    expect((await list(`actorId=${adminId}`)).total).toBeGreaterThanOrEqual(4);
    expect((await list('actorId=00000000-0000-4000-8000-000000000000')).total).toBe(0);
    expect((await list('keyword=ROLE.')).items.every((e) => e.action.startsWith('role.'))).toBe(true);
    expect((await list('keyword=admin')).total).toBeGreaterThanOrEqual(4);
    expect((await list(`from=${encodeURIComponent(started)}&action=user.create`)).total).toBe(2);
    expect((await list('to=2000-01-01')).total).toBe(0);
    // Bare dates are Beijing days (the admin's): from 00:00 +08:00 of the first through the whole last day.
    const beijingDay = (ms: number) => new Date(ms + 8 * 3600_000).toISOString().slice(0, 10);
    const [first, last] = [beijingDay(Date.parse(started)), beijingDay(Date.now())];
    expect((await list(`from=${first}&to=${last}&action=user.create`)).total).toBe(2);
    // The Beijing day ends at 16:00 UTC: a window up to 16:00 UTC of the day before `first` sees none of them…
    const dayBefore = beijingDay(Date.parse(`${first}T00:00:00+08:00`) - 1);
    expect((await list(`to=${dayBefore}&action=user.create`)).total).toBe(0);
    // …and one from the Beijing day after `last` starts in the future.
    const dayAfter = beijingDay(Date.parse(`${last}T00:00:00+08:00`) + 86400_000);
    expect((await list(`from=${dayAfter}&action=user.create`)).total).toBe(0);
  });

  it('reads a bare date as the Beijing day (00:00 +08:00 through the next 00:00), as the admin shows dates', () => {
    expect(timeWindow({ from: '2026-11-27', to: '2026-11-27' })).toEqual({
      from: '2026-11-26T16:00:00.000Z',
      before: '2026-11-27T16:00:00.000Z',
    });
    // An instant is taken as given.
    expect(timeWindow({ from: '2026-11-27T00:00:00Z' }).from).toBe('2026-11-27T00:00:00.000Z');
  });

  it('names the bad filter', async () => {
    for (const [query, field] of [
      ['from=yesterday', 'from'],
      ['to=2024-13-45', 'to'],
      ['from=2024-02-01&to=2024-01-01', 'to'],
      ['pageSize=0', 'pageSize'],
    ]) {
      const res = await admin('GET', `/api/audit-logs?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message).toContain(`参数 ${field}`);
    }
  });

  it('exports CSV with a BOM; Chinese detail survives; the export itself is recorded', async () => {
    const res = await admin('GET', '/api/audit-logs/export?action=user.create');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      new RegExp(
        `^attachment; filename="audit-logs-\\d{4}-\\d{2}-\\d{2}\\.csv"; filename\\*=UTF-8''${encodeURIComponent('审计日志-')}\\d{4}-\\d{2}-\\d{2}\\.csv$`,
      ),
    );
    const text = res.rawPayload.toString('utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const lines = text.slice(1).trim().split('\r\n');
    expect(lines[0]).toBe('时间,操作人,动作,对象类型,对象,来源地址,详情,操作人编号,对象编号');
    expect(lines[1]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},admin,新增用户,用户,/);
    expect(lines).toHaveLength(3);
    expect(lines.join('\n')).toContain('""nickname"":""甲""');
    expect((await list('action=audit.export')).items[0].detail).toMatchObject({ count: 2 });
  });

  it('names each target: the user, the role, whose session, and a user since deleted', async () => {
    const gone = await createUser(admin, 'audit_gone');
    expect((await admin('DELETE', `/api/users/${gone}`)).statusCode).toBe(204);
    const victim = await createUser(admin, 'audit_session');
    await login(t.app, 'audit_session', PASSWORD);
    const [session] = (await admin('GET', `/api/sessions?userId=${victim}`)).json().data.items;
    expect((await admin('DELETE', `/api/sessions/${session.id}`)).statusCode).toBe(204);
    const items = (await list('pageSize=100')).items;
    const named = (action: string) => items.filter((e) => e.action === action).map((e) => e.targetName);
    expect(named('user.delete')).toEqual(['audit_gone']);
    expect(named('user.create')).toEqual(['audit_session', 'audit_gone', 'audit_b', 'audit_a']);
    expect(named('session.delete')).toEqual(['audit_session']);
    expect(named('role.create')).toEqual(['角色 watcher']);
    expect(named('role.set-grants')).toEqual(['角色 watcher']);
  });

  it('revoking an API key names it by its name and prefix, one key or a batch', async () => {
    const make = async (name: string) => {
      const res = await admin('POST', '/api/admin/api-keys', { name });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data.key as { id: string; prefix: string };
    };
    const [one, two, three] = [await make('天气小程序'), await make('官网'), await make('旧版')];
    expect((await admin('DELETE', `/api/admin/api-keys/${one.id}`)).statusCode).toBe(204);
    const batch = await admin('POST', '/api/admin/api-keys/batch-delete', { ids: [two.id, three.id] });
    expect(batch.statusCode, batch.body).toBeLessThan(300);
    expect((await list('action=api-key.revoke')).items.map((e) => e.targetName)).toEqual([
      `天气小程序（${one.prefix}）`,
    ]);
    // A batch names each key (in the order the rows were locked).
    const batchNames = (await list('action=api-key.batch-revoke')).items[0].targetName.split('、');
    expect(batchNames.sort()).toEqual([`官网（${two.prefix}）`, `旧版（${three.prefix}）`].sort());
    expect((await list('action=api-key.create')).items[0].targetName).toBe(`旧版（${three.prefix}）`);
  });

  it('a grant change names its menus, also in rows written before grants recorded them', async () => {
    const grants = (await list('action=role.set-grants')).items[0].detail;
    expect(grants.to).toEqual([{ menu: 'system:audit', name: '审计日志', bits: 1 }]);
    await recordAudit(t.app.db.kysely, {
      actorId: null,
      actorUsername: 'admin',
      action: 'role.set-grants',
      targetType: 'role',
      targetId: null,
      detail: { code: 'old', from: [], to: [{ menu: 'system:user', bits: 7 }] },
      ip: '',
    });
    const old = (await list('action=role.set-grants')).items[0];
    expect(old.targetName).toBe('old');
    expect(old.detail.to).toEqual([{ menu: 'system:user', name: '用户管理', bits: 7 }]);
  });
});
