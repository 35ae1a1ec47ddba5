import { beforeAll, expect, it } from 'vitest';
import { MENUS } from '../src/catalogue/index.js';
import { PERMISSION } from '../src/admin/permissions/points.js';
import { adminCall, userWithGrants, type Call } from './admin-fixtures.js';
import { describeEachDb, useTestApp } from './helpers.js';

const MENU = MENUS.apiKeys.code;
const { SEARCH, ADD, EDIT, RESET } = PERMISSION;

interface Key {
  id: string;
  prefix: string;
  perMinute: number | null;
  groups: string[] | null;
  addresses: string[] | null;
}

async function createKey(as: Call, body: Record<string, unknown>): Promise<Key> {
  const res = await as('POST', '/api/admin/api-keys', { name: 'k', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.key as Key;
}

describeEachDb('API keys: only who may grant a key’s limits rotates it or lifts them', (dialect) => {
  const t = useTestApp(dialect);
  let admin: Call;
  let operator: Call;
  /** A super administrator's key, above the defaults (600 a minute), fenced to one network and one group. */
  let big: Key;
  /** A key within the defaults, fenced the same way: the operator could have created it. */
  let small: Key;
  const fences = { groups: ['daily'], addresses: ['10.0.0.0/8'] };

  const audited = async (action: string, id: string) =>
    (
      await t.db.kysely
        .selectFrom('audit_logs')
        .select('actor_username')
        .where('action', '=', action)
        .where('target_id', '=', id)
        .execute()
    ).map((r) => r.actor_username);

  beforeAll(async () => {
    admin = await adminCall(t.app);
    operator = (await userWithGrants(t.app, admin, 'keyop', { [MENU]: SEARCH | ADD | EDIT | RESET })).call;
    big = await createKey(admin, { name: 'big', perMinute: 100_000, ...fences });
    small = await createKey(admin, { name: 'small', perMinute: 100, ...fences });
  });

  it('a delegated operator is refused rotating a key above the defaults (403 naming the rule), and nothing changes', async () => {
    const res = await operator('POST', `/api/admin/api-keys/${big.id}/rotate`, { graceMinutes: 0 });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toMatchObject({ code: 'PRIVILEGE_ESCALATION' });
    expect(res.json().message).toBe(
      '轮换接口密钥：该密钥的每分钟配额 100000 次高于默认值 600 次，只有超级管理员可以授予',
    );
    expect((await admin('GET', `/api/admin/api-keys/${big.id}`)).json().data.prefix).toBe(big.prefix);
    expect(await audited('api-key.rotate', big.id)).toEqual([]);
  });

  it('a delegated operator is refused lifting the address or group limits of a key above the defaults', async () => {
    for (const patch of [
      { addresses: null },
      { addresses: ['10.0.0.0/8', '192.0.2.1'] },
      { addresses: ['0.0.0.0/0'] },
      { groups: null },
      { groups: ['daily', 'mood'] },
      { name: 'renamed', groups: null },
    ]) {
      const res = await operator('PATCH', `/api/admin/api-keys/${big.id}`, patch);
      expect(res.statusCode, JSON.stringify(patch)).toBe(403);
      expect(res.json().code).toBe('PRIVILEGE_ESCALATION');
      expect(res.json().message).toMatch(
        /^放宽接口密钥的(分组|地址)限制：该密钥的每分钟配额 100000 次高于默认值 600 次，只有超级管理员可以授予$/,
      );
    }
    expect((await admin('GET', `/api/admin/api-keys/${big.id}`)).json().data).toMatchObject({ name: 'big', ...fences });
    expect(await audited('api-key.update', big.id)).toEqual([]);
  });

  it('a delegated operator may still rename or narrow such a key (audited), but not raise its limits', async () => {
    const narrowed = await operator('PATCH', `/api/admin/api-keys/${big.id}`, {
      note: '收窄',
      addresses: ['10.1.0.0/16', '10.2.3.4'],
      groups: ['daily'],
    });
    expect(narrowed.statusCode, narrowed.body).toBe(200);
    expect(narrowed.json().data.addresses).toEqual(['10.1.0.0/16', '10.2.3.4']);
    expect(await audited('api-key.update', big.id)).toEqual(['keyop']);
    const raised = await operator('PATCH', `/api/admin/api-keys/${big.id}`, { perDay: 200_000 });
    expect(raised.statusCode).toBe(403);
    expect(raised.json().code).toBe('PRIVILEGE_ESCALATION');
  });

  it('a delegated operator rotates, raises and lifts within what they may grant (audited)', async () => {
    const rotated = await operator('POST', `/api/admin/api-keys/${small.id}/rotate`, { graceMinutes: 0 });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const lifted = await operator('PATCH', `/api/admin/api-keys/${small.id}`, {
      perMinute: 600,
      groups: null,
      addresses: null,
    });
    expect(lifted.statusCode, lifted.body).toBe(200);
    expect(lifted.json().data).toMatchObject({ perMinute: 600, groups: null, addresses: null });
    expect(await audited('api-key.rotate', small.id)).toEqual(['keyop']);
    expect(await audited('api-key.update', small.id)).toEqual(['keyop']);
  });

  it('a key whose quota is the server default (null) is within anyone’s grant', async () => {
    const plain = await createKey(admin, { name: 'plain', ...fences });
    expect((await operator('POST', `/api/admin/api-keys/${plain.id}/rotate`, { graceMinutes: 1 })).statusCode).toBe(
      200,
    );
    expect((await operator('PATCH', `/api/admin/api-keys/${plain.id}`, { addresses: null })).statusCode).toBe(200);
  });

  it('a super administrator rotates and lifts any key (audited)', async () => {
    const rotated = await admin('POST', `/api/admin/api-keys/${big.id}/rotate`, { graceMinutes: 0 });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const lifted = await admin('PATCH', `/api/admin/api-keys/${big.id}`, { groups: null, addresses: null });
    expect(lifted.statusCode, lifted.body).toBe(200);
    expect(await audited('api-key.rotate', big.id)).toEqual(['admin']);
    expect((await audited('api-key.update', big.id)).sort()).toEqual(['admin', 'keyop']);
  });
});
