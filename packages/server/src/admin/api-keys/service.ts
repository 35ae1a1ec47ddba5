import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { transact } from '../../db/transaction.js';
import type { Db } from '../../db/index.js';
import { conflict, notFound } from '../../errors.js';
import { newSecret } from '../../public/keys/secret.js';
import { addressMatcher } from '../../public/keys/registry.js';
import { privilegeEscalation } from '../escalation.js';
import { changesOf, unique, type Actor } from '../shared/actor.js';
import { EXPORT_LIMIT } from '../shared/query.js';
import { fieldError, type PageQuery } from '../shared/schemas.js';
import { apiKeysRepository as repo, type ApiKeyFilter, type ApiKeyRow } from './repository.js';
import type { LookupGroup } from '../../catalogue/lookup-groups.js';
import type { ApiKeyStatus, CreateApiKeyInput, UpdateApiKeyInput } from './schemas.js';

const list = (json: string | null) => (json === null ? null : (JSON.parse(json) as string[]));
const json = (v: string[] | null | undefined) => (v == null ? null : JSON.stringify(v));

export function statusOf(r: ApiKeyRow, now = new Date().toISOString()): ApiKeyStatus {
  if (r.revoked_at !== null) return 'revoked';
  return r.expires_at !== null && r.expires_at <= now ? 'expired' : 'active';
}

export const toApiKeyDto = (r: ApiKeyRow) => ({
  id: r.id,
  name: r.name,
  note: r.note,
  prefix: r.prefix,
  status: statusOf(r),
  createdBy: r.created_by ? { id: r.created_by, username: r.created_by_username ?? '' } : null,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  expiresAt: r.expires_at,
  revokedAt: r.revoked_at,
  perMinute: r.per_minute === null ? null : Number(r.per_minute),
  perDay: r.per_day === null ? null : Number(r.per_day),
  groups: list(r.groups),
  origins: list(r.origins),
  addresses: list(r.addresses),
  graceUntil: r.grace_until !== null && r.grace_until > new Date().toISOString() ? r.grace_until : null,
});
export type ApiKeyDto = ReturnType<typeof toApiKeyDto>;

/** What an audit row says of a key: never the secret or its hash. */
const described = (r: ApiKeyRow) => ({ name: r.name, prefix: r.prefix });

/** IPs and CIDRs (v4 or v6): each entry checked, errors naming it (`addresses.2`). */
function checkAddresses(addresses: string[] | null | undefined): void {
  addresses?.forEach((a, i) => {
    const [addr, bits, extra] = a.split('/');
    const v = isIP(addr);
    const max = v === 6 ? 128 : 32;
    const ok =
      v !== 0 && extra === undefined && (bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= max));
    if (!ok) throw fieldError(`addresses.${i}`, '应为 IP 地址或网段（例如 203.0.113.7、10.0.0.0/8、2001:db8::/32）', a);
  });
}

function checkExpiry(expiresAt: string | null | undefined): string | null | undefined {
  if (expiresAt == null) return expiresAt;
  const t = Date.parse(expiresAt);
  if (!(t > Date.now())) throw fieldError('expiresAt', '过期时间应晚于现在', expiresAt);
  return new Date(t).toISOString();
}

type Limits = { perMinute?: number | null; perDay?: number | null };
/** A row's quota, as the API shows it. */
const limitsOf = (r: ApiKeyRow): Limits => ({
  perMinute: r.per_minute === null ? null : Number(r.per_minute),
  perDay: r.per_day === null ? null : Number(r.per_day),
});

/** Whether the address or network `entry` lies inside one of `fence`'s (same family, a prefix at least as long). */
function within(entry: string, fence: readonly string[]): boolean {
  const parse = (a: string) => {
    const [addr, bits] = a.split('/');
    const type = isIP(addr) === 6 ? 'ipv6' : 'ipv4';
    return { addr, type, len: bits === undefined ? (type === 'ipv6' ? 128 : 32) : Number(bits) } as const;
  };
  const e = parse(entry);
  return fence.some((f) => {
    const g = parse(f);
    return g.type === e.type && g.len <= e.len && addressMatcher([f]).check(e.addr, e.type);
  });
}

const FENCES = { groups: '分组', origins: '来源网页', addresses: '地址' } as const;

/**
 * The fences of a key `patch` lifts (null: anyone) or widens (an entry the old list does not cover; for addresses, a
 * network inside an old one is covered), and a later or removed expiry: what only someone who may grant the key's
 * limits may do.
 */
function widened(before: ApiKeyRow, patch: UpdateApiKeyInput, expiresAt: string | null | undefined): string[] {
  const out: string[] = [];
  for (const [field, label] of Object.entries(FENCES) as [keyof typeof FENCES, string][]) {
    const was = list(before[field]);
    const next = patch[field];
    if (next === undefined || was === null) continue;
    const covered = (x: string) => (field === 'addresses' ? within(x, was) : was.includes(x));
    if (next === null || !next.every(covered)) out.push(label);
  }
  if (expiresAt !== undefined && before.expires_at !== null && (expiresAt === null || expiresAt > before.expires_at))
    out.push('有效期');
  return out;
}

export interface ApiKeyDefaults {
  perMinute: number;
  perDay: number;
}

/**
 * API keys of public callers (menu 接口密钥). The secret is returned once, by create and rotate, and stored only as
 * its SHA-256; audit rows name a key by its name and prefix. Every committed change calls `changed`, which makes
 * every instance forget its cached keys (public/keys/registry.ts).
 */
export class ApiKeysService {
  constructor(
    private readonly db: Db,
    private readonly defaults: ApiKeyDefaults,
    private readonly changed: () => Promise<void>,
  ) {}

  private get k() {
    return this.db.kysely;
  }

  async list(q: PageQuery & ApiKeyFilter) {
    const { items, total } = await repo.list(this.k, q, new Date().toISOString());
    return { items: items.map(toApiKeyDto), total };
  }

  async exportRows(f: ApiKeyFilter) {
    const q = { ...f, page: 1, pageSize: EXPORT_LIMIT };
    const { items, total } = await repo.list(this.k, q, new Date().toISOString(), EXPORT_LIMIT, 0);
    return { items: items.map(toApiKeyDto), truncated: total > items.length };
  }

  async get(id: string): Promise<ApiKeyDto> {
    const row = await repo.find(this.k, id);
    if (!row) throw notFound('api key');
    return toApiKeyDto(row);
  }

  /**
   * The one rule of who may give a key its reach. Keys are not permissions, but a quota is the server's capacity: below
   * super administrators, no one grants limits above the server defaults, so no one creates a key with them, rotates a
   * key that has them (and holds its secret), or widens what such a key may do (403 PRIVILEGE_ESCALATION naming the
   * limit; `what` is what was refused, `whose` says whether the limits are the request's or the key's).
   */
  private cover(actor: Actor, limits: Limits, what: string, whose = '') {
    if (actor.isSuper) return;
    const windows = [
      ['每分钟', limits.perMinute, this.defaults.perMinute],
      ['每天', limits.perDay, this.defaults.perDay],
    ] as const;
    for (const [window, value, max] of windows)
      if (value != null && max > 0 && value > max)
        throw privilegeEscalation(
          `${what}：${whose}${window}配额 ${value} 次高于默认值 ${max} 次，只有超级管理员可以授予`,
        );
  }

  async create(actor: Actor, input: CreateApiKeyInput): Promise<{ key: ApiKeyDto; secret: string }> {
    checkAddresses(input.addresses);
    const expiresAt = checkExpiry(input.expiresAt);
    this.cover(actor, input, '新增接口密钥');
    const { secret, hash, prefix } = newSecret();
    const now = new Date().toISOString();
    const row: ApiKeyRow = {
      id: randomUUID(),
      name: input.name,
      note: input.note ?? null,
      prefix,
      secret_hash: hash,
      old_secret_hash: null,
      grace_until: null,
      created_by: actor.id,
      created_by_username: actor.username,
      created_at: now,
      updated_at: now,
      last_used_at: null,
      expires_at: expiresAt ?? null,
      revoked_at: null,
      per_minute: input.perMinute ?? null,
      per_day: input.perDay ?? null,
      groups: json(input.groups),
      origins: json(input.origins),
      addresses: json(input.addresses),
    };
    await transact(this.k, async (trx) => {
      await trx.insertInto('api_keys').values(row).execute();
      const { id, ...shown } = toApiKeyDto(row);
      await actor.audit('api-key.create', 'api-key', id, { ...shown, createdBy: undefined }, trx);
    });
    return { key: toApiKeyDto(row), secret };
  }

  async update(actor: Actor, id: string, patch: UpdateApiKeyInput): Promise<ApiKeyDto> {
    checkAddresses(patch.addresses);
    const expiresAt = checkExpiry(patch.expiresAt);
    this.cover(actor, patch, '编辑接口密钥');
    const dto = await transact(this.k, async (trx) => {
      const [before] = await repo.lockMany(trx, [id], this.db.dialect);
      if (!before) throw notFound('api key');
      const lifted = widened(before, patch, expiresAt);
      if (lifted.length > 0) {
        const was = limitsOf(before);
        // null sets a limit back to the default: only an absent field keeps the key's own.
        const after = {
          perMinute: patch.perMinute === undefined ? was.perMinute : patch.perMinute,
          perDay: patch.perDay === undefined ? was.perDay : patch.perDay,
        };
        this.cover(actor, after, `放宽接口密钥的${lifted.join('、')}限制`, '该密钥的');
      }
      const changes = changesOf(toApiKeyDto(before), { ...patch, expiresAt });
      // Arrays compare by value.
      for (const k of ['groups', 'origins', 'addresses'] as const)
        if (k in changes && JSON.stringify(changes[k].from) === JSON.stringify(changes[k].to)) delete changes[k];
      if (Object.keys(changes).length === 0) return toApiKeyDto(before);
      await trx
        .updateTable('api_keys')
        .set({
          ...(patch.name !== undefined && { name: patch.name }),
          ...(patch.note !== undefined && { note: patch.note }),
          ...(expiresAt !== undefined && { expires_at: expiresAt }),
          ...(patch.perMinute !== undefined && { per_minute: patch.perMinute }),
          ...(patch.perDay !== undefined && { per_day: patch.perDay }),
          ...(patch.groups !== undefined && { groups: json(patch.groups) }),
          ...(patch.origins !== undefined && { origins: json(patch.origins) }),
          ...(patch.addresses !== undefined && { addresses: json(patch.addresses) }),
          updated_at: new Date().toISOString(),
        })
        .where('id', '=', id)
        .execute();
      await actor.audit('api-key.update', 'api-key', id, { ...described(before), changes }, trx);
      return toApiKeyDto((await repo.find(trx, id))!);
    });
    await this.changed();
    return dto;
  }

  /** Revokes keys (the rows stay, for the audit trail and usage); already revoked ones are left as they are. */
  async revoke(actor: Actor, ids: string[], action: 'api-key.revoke' | 'api-key.batch-revoke') {
    const result = await transact(this.k, async (trx) => {
      const found = await repo.lockMany(trx, unique(ids), this.db.dialect);
      if (action === 'api-key.revoke' && found.length === 0) throw notFound('api key');
      const live = found.filter((r) => r.revoked_at === null);
      if (live.length > 0) {
        const now = new Date().toISOString();
        await trx
          .updateTable('api_keys')
          .set({ revoked_at: now, updated_at: now })
          .where(
            'id',
            'in',
            live.map((r) => r.id),
          )
          .execute();
        await actor.audit(
          action,
          'api-key',
          action === 'api-key.revoke' ? live[0].id : null,
          { keys: live.map(described) },
          trx,
        );
      }
      return { revoked: live.length, first: found[0] ? toApiKeyDto((await repo.find(trx, found[0].id))!) : undefined };
    });
    await this.changed();
    return result;
  }

  /** A new secret; the previous one keeps working for `graceMinutes` (0: refused at once). */
  async rotate(actor: Actor, id: string, graceMinutes: number): Promise<{ key: ApiKeyDto; secret: string }> {
    const { secret, hash, prefix } = newSecret();
    const key = await transact(this.k, async (trx) => {
      const [before] = await repo.lockMany(trx, [id], this.db.dialect);
      if (!before) throw notFound('api key');
      if (before.revoked_at !== null) throw conflict('接口密钥已吊销，不能轮换；请新建一个密钥');
      this.cover(actor, limitsOf(before), '轮换接口密钥', '该密钥的');
      const now = Date.now();
      const graceUntil = graceMinutes > 0 ? new Date(now + graceMinutes * 60_000).toISOString() : null;
      await trx
        .updateTable('api_keys')
        .set({
          secret_hash: hash,
          prefix,
          old_secret_hash: graceUntil ? before.secret_hash : null,
          grace_until: graceUntil,
          updated_at: new Date(now).toISOString(),
        })
        .where('id', '=', id)
        .execute();
      await actor.audit(
        'api-key.rotate',
        'api-key',
        id,
        { name: before.name, fromPrefix: before.prefix, toPrefix: prefix, graceMinutes },
        trx,
      );
      return toApiKeyDto((await repo.find(trx, id))!);
    });
    await this.changed();
    return { key, secret };
  }

  async policy(): Promise<{ requireKeyGroups: LookupGroup[] }> {
    const row = await this.k.selectFrom('api_key_policy').selectAll().where('id', '=', 1).executeTakeFirst();
    return { requireKeyGroups: row ? (JSON.parse(row.require_key_groups) as LookupGroup[]) : [] };
  }

  async setPolicy(actor: Actor, requireKeyGroups: LookupGroup[]) {
    const next = unique(requireKeyGroups).sort();
    await transact(this.k, async (trx) => {
      const before = await trx.selectFrom('api_key_policy').selectAll().where('id', '=', 1).executeTakeFirst();
      const from = before ? (JSON.parse(before.require_key_groups) as string[]) : [];
      const row = { require_key_groups: JSON.stringify(next), updated_at: new Date().toISOString() };
      if (before) await trx.updateTable('api_key_policy').set(row).where('id', '=', 1).execute();
      else
        await trx
          .insertInto('api_key_policy')
          .values({ id: 1, ...row })
          .execute();
      await actor.audit('api-key.policy', 'api-key', null, { requireKeyGroups: { from, to: next } }, trx);
    });
    await this.changed();
    return { requireKeyGroups: next };
  }
}
