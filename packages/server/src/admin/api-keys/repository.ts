import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Dialect } from '../../db/index.js';
import { containsText, lockForWrite, offsetOf } from '../shared/query.js';
import type { PageQuery } from '../shared/schemas.js';
import type { ApiKeyStatus } from './schemas.js';

export type ApiKeyRow = Database['api_keys'];

export interface ApiKeyFilter {
  keyword?: string;
  status?: ApiKeyStatus;
}

/** `now` is an ISO timestamp: expiry compares as text, as every timestamp column here is ISO 8601 UTC. */
function filtered<O>(qb: SelectQueryBuilder<Database, 'api_keys', O>, f: ApiKeyFilter, now: string) {
  let q = qb;
  if (f.keyword)
    q = q.where((eb) =>
      eb.or([
        containsText('api_keys.name', f.keyword!),
        containsText('api_keys.note', f.keyword!),
        containsText('api_keys.prefix', f.keyword!.replace(/^tj_/i, '').replace(/…$/, '')),
      ]),
    );
  if (f.status === 'revoked') q = q.where('revoked_at', 'is not', null);
  else if (f.status === 'expired') q = q.where('revoked_at', 'is', null).where('expires_at', '<=', now);
  else if (f.status === 'active')
    q = q
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
  return q;
}

export const apiKeysRepository = {
  /** Newest first. */
  async list(db: Kysely<Database>, q: PageQuery & ApiKeyFilter, now: string, limit = q.pageSize, offset = offsetOf(q)) {
    const { total } = await filtered(db.selectFrom('api_keys'), q, now)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    const items = await filtered(db.selectFrom('api_keys').selectAll(), q, now)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute();
    return { items, total: Number(total) };
  },

  find(db: Kysely<Database>, id: string) {
    return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** The rows, locked on PostgreSQL before the transaction writes (see lockForWrite), in id order. */
  lockMany(db: Kysely<Database>, ids: string[], dialect: Dialect): Promise<ApiKeyRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return lockForWrite(db.selectFrom('api_keys').selectAll().where('id', 'in', ids).orderBy('id'), dialect).execute();
  },
};
