/**
 * `tianji keys`: the spawned CLI against a real server (SQLite). A secret is printed once and works on the public
 * API (through the SDK's public client), a rotation keeps the old one for its grace, a revocation refuses it at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, PublicApiError } from '@tianji/client';
import { ADMIN } from '../../server/test/helpers.js';
import { keysTable, parseExpiry, type ApiKey } from '../src/commands/keys.js';
import { startHarness, type CliHarness } from './cli-harness.js';

const SECRET = /^(?:密钥|Secret): (tj_[A-Za-z0-9_-]{43})$/m;

describe('tianji keys', () => {
  let h: CliHarness;
  beforeAll(async () => {
    h = await startHarness('sqlite');
    const login = await h.run(['login', '--server', h.server, '--username', ADMIN.username, '--password-stdin'], {
      stdin: `${ADMIN.password}\n`,
    });
    expect(login.code, login.stderr).toBe(0);
  });
  afterAll(() => h?.close());

  const works = (secret: string) =>
    createPublicClient({ baseUrl: h.server, apiKey: secret })
      .get('/api/random-color', {})
      .then(
        () => 200,
        (e: unknown) => (e instanceof PublicApiError ? e.status : -1),
      );

  it('create prints the secret once with the warning; it works on the public API; list shows the key, not the secret', async () => {
    const r = await h.run([
      'keys',
      'create',
      'partner-a',
      '--note',
      '合作方 A',
      '--per-minute',
      '120',
      '--group',
      'life',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const secret = SECRET.exec(r.stdout)?.[1];
    expect(secret).toBeDefined();
    expect(r.stdout).toContain('密钥只显示这一次');
    expect(r.stdout).toMatch(/接口分组\s+生活服务/);
    expect(await works(secret!)).toBe(403); // random-color is in the random group, not life

    const list = await h.run(['keys', 'list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout.split('\n')[0]).toMatch(/^名称\s+前缀\s+状态\s+每分钟\s+每天\s+最近使用\s+过期时间\s+ID$/);
    expect(list.stdout).toMatch(/partner-a\s+tj_[\w-]{8}…\s+有效\s+120\s+默认/);
    expect(list.stdout).not.toContain(secret);
    const en = await h.run(['keys', 'list'], { env: { LANG: 'en_US.UTF-8' } });
    expect(en.stdout.split('\n')[0]).toMatch(/^Name\s+Prefix\s+Status\s+Per minute/);
    expect(en.stdout).toMatch(/Active\s+120\s+default/);
  });

  it('--json gives the key and the secret, the warning on stderr', async () => {
    const r = await h.run(['keys', 'create', 'partner-b', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { key: ApiKey; secret: string };
    expect(out.secret).toMatch(/^tj_/);
    expect(out.key).toMatchObject({ name: 'partner-b', status: 'active' });
    expect(r.stderr).toContain('密钥只显示这一次');
    expect(await works(out.secret)).toBe(200);
  });

  it('rotate --grace keeps the old secret working for the grace; --grace 0 ends it at once', async () => {
    const first = SECRET.exec((await h.run(['keys', 'create', 'rotating'])).stdout)![1]!;
    const r = await h.run(['keys', 'rotate', 'rotating', '--grace', '30']);
    expect(r.code, r.stderr).toBe(0);
    const second = SECRET.exec(r.stdout)![1]!;
    expect(second).not.toBe(first);
    expect(r.stdout).toMatch(/旧密钥有效至\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    expect(await works(first)).toBe(200);
    expect(await works(second)).toBe(200);

    const prefix = /tj_[\w-]{8}/.exec(r.stdout)![0];
    const again = await h.run(['keys', 'rotate', prefix, '--grace', '0']);
    expect(again.code, again.stderr).toBe(0);
    expect(await works(second)).toBe(401);
    expect(await works(SECRET.exec(again.stdout)![1]!)).toBe(200);
  });

  it('revoke asks unless --yes; the key is refused at once and listed as 已吊销', async () => {
    const secret = SECRET.exec((await h.run(['keys', 'create', 'to-revoke'])).stdout)![1]!;
    const refused = await h.run(['keys', 'revoke', 'to-revoke']); // no terminal, no --yes
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('加 --yes');
    expect(await works(secret)).toBe(200);

    const r = await h.run(['keys', 'revoke', 'to-revoke', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('已吊销接口密钥 to-revoke');
    expect(await works(secret)).toBe(401);
    const list = await h.run(['keys', 'list', '--status', 'revoked']);
    expect(list.stdout).toMatch(/to-revoke\s+tj_[\w-]{8}…\s+已吊销/);
  });

  it('refuses a full secret on the command line, bad options by name, and unknown keys (JSON with --json)', async () => {
    const secret = `tj_${'a'.repeat(43)}`;
    const full = await h.run(['keys', 'revoke', secret, '--yes']);
    expect(full.code).toBe(2);
    expect(full.stderr).toContain('不要在命令行里写完整的密钥');
    expect(full.stderr).not.toContain(secret);

    const group = await h.run(['keys', 'create', 'x', '--group', 'images']);
    expect(group.code).toBe(2);
    expect(group.stderr).toContain('--group 只能是 daily（每日推荐）');
    const grace = await h.run(['keys', 'rotate', 'x', '--grace', '20000']);
    expect(grace.code).toBe(2);
    expect(grace.stderr).toContain('--grace 必须是 0 到 10080 之间的整数');

    const missing = await h.run(['keys', 'rotate', 'nobody', '--json']);
    expect(missing.code).toBe(6);
    expect(JSON.parse(missing.stderr).error).toMatchObject({ code: 'NOT_FOUND', exitCode: 6 });
  });

  it('expiry is read as Beijing time and must lie ahead; tables show dates in Beijing time (no process needed)', () => {
    expect(parseExpiry('2099-01-01')).toBe('2098-12-31T16:00:00.000Z');
    expect(parseExpiry('2099-01-01 12:30')).toBe('2099-01-01T04:30:00.000Z');
    expect(() => parseExpiry('2000-01-01')).toThrow('--expires 必须是将来的时间');
    expect(() => parseExpiry('next week')).toThrow('--expires 的格式应为 YYYY-MM-DD');
    const key: ApiKey = {
      id: 'k1',
      name: 'n',
      note: null,
      prefix: 'ab12cd34',
      status: 'expired',
      createdBy: null,
      createdAt: '2026-01-01T00:00:00Z',
      lastUsedAt: '2026-01-01T16:05:00Z',
      expiresAt: null,
      revokedAt: null,
      perMinute: null,
      perDay: 1000,
      groups: null,
      origins: null,
      addresses: null,
      graceUntil: null,
    };
    expect(keysTable([key], 'zh')).toMatch(/n\s+tj_ab12cd34…\s+已过期\s+默认\s+1000\s+2026-01-02 00:05\s+永不\s+k1/);
    expect(keysTable([key], 'en')).toMatch(/Expired\s+default\s+1000\s+2026-01-02 00:05\s+never/);
  });
});
