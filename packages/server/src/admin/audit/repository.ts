import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/schema.js';
import { containsText } from '../shared/query.js';
import { fieldError } from '../shared/schemas.js';
import type { AuditEntry, AuditFilter } from './schemas.js';
import { withTargetNames } from './target-names.js';

const DAY_MS = 86_400_000;

/** The time window of a filter as ISO instants: `from` inclusive, `to` exclusive (a bare date `to` covers its whole day). */
export function timeWindow(f: AuditFilter): { from?: string; before?: string } {
  const parse = (field: 'from' | 'to', v: string) => {
    const bare = /^\d{4}-\d{2}-\d{2}$/.test(v);
    // A bare day is a Beijing day, as every date the admin shows and its date pickers send.
    const ms = Date.parse(bare ? `${v}T00:00:00+08:00` : v);
    if (Number.isNaN(ms)) throw fieldError(field, '不是有效的日期或时间', v);
    return { ms, bare };
  };
  const from = f.from ? parse('from', f.from).ms : undefined;
  let before: number | undefined;
  if (f.to) {
    const to = parse('to', f.to);
    before = to.bare ? to.ms + DAY_MS : to.ms + 1;
  }
  if (from !== undefined && before !== undefined && from >= before) throw fieldError('to', '应晚于 from', f.to);
  return {
    from: from === undefined ? undefined : new Date(from).toISOString(),
    before: before === undefined ? undefined : new Date(before).toISOString(),
  };
}

function filtered<O>(qb: SelectQueryBuilder<Database, 'audit_logs', O>, f: AuditFilter) {
  let q = qb;
  const kw = f.keyword;
  if (kw) {
    q = q.where((eb) =>
      eb.or([
        containsText('action', kw),
        containsText('actor_username', kw),
        containsText('target_type', kw),
        containsText('target_id', kw),
      ]),
    );
  }
  if (f.action) q = q.where('action', '=', f.action);
  if (f.actorId) q = q.where('actor_id', '=', f.actorId);
  const { from, before } = timeWindow(f);
  if (from) q = q.where('created_at', '>=', from);
  if (before) q = q.where('created_at', '<', before);
  return q;
}

function toEntry(r: Database['audit_logs']): Omit<AuditEntry, 'targetName'> {
  let detail: unknown = r.detail;
  try {
    detail = JSON.parse(r.detail);
  } catch {
    // Rows written by hand may hold plain text; show it as it is.
  }
  return {
    id: r.id,
    actorId: r.actor_id,
    actorUsername: r.actor_username,
    action: r.action,
    targetType: r.target_type,
    targetId: r.target_id,
    detail,
    ip: r.ip,
    createdAt: r.created_at,
  };
}

export const auditRepository = {
  /** Newest first. */
  async list(db: Kysely<Database>, f: AuditFilter, limit: number, offset: number) {
    const { total } = await filtered(db.selectFrom('audit_logs'), f)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    const rows = await filtered(db.selectFrom('audit_logs').selectAll(), f)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return { items: await withTargetNames(db, rows.map(toEntry)), total: Number(total) };
  },
};
