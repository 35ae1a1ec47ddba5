import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Dialect } from '../../db/index.js';
import { roleNameKey } from './name-key.js';
import { containsText, lockForWrite, offsetOf } from '../shared/query.js';
import type { PageQuery } from '../shared/schemas.js';

export type RoleRow = Database['roles'];

export interface RoleFilter {
  keyword?: string;
  status?: 'enabled' | 'disabled';
}

function filtered<O>(qb: SelectQueryBuilder<Database, 'roles', O>, f: RoleFilter) {
  let q = qb;
  if (f.keyword)
    q = q.where((eb) => eb.or([containsText('roles.code', f.keyword!), containsText('roles.name', f.keyword!)]));
  if (f.status) q = q.where('roles.status', '=', f.status);
  return q;
}

export const rolesRepository = {
  /** Ordered by `sort`, then code. */
  async list(db: Kysely<Database>, q: PageQuery & RoleFilter, limit = q.pageSize, offset = offsetOf(q)) {
    const { total } = await filtered(db.selectFrom('roles'), q)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    const items = await filtered(db.selectFrom('roles').selectAll(), q)
      .orderBy('sort')
      .orderBy('code')
      .limit(limit)
      .offset(offset)
      .execute();
    return { items, total: Number(total) };
  },

  find(db: Kysely<Database>, id: string) {
    return db.selectFrom('roles').selectAll().where('id', '=', id).executeTakeFirst();
  },

  findMany(db: Kysely<Database>, ids: string[]) {
    return ids.length
      ? db.selectFrom('roles').select(['id', 'code', 'name']).where('id', 'in', ids).execute()
      : Promise.resolve([]);
  },

  /** The rows, locked on PostgreSQL before the transaction writes anything (see lockForWrite), in id order. */
  lockMany(db: Kysely<Database>, ids: string[], dialect: Dialect): Promise<RoleRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return lockForWrite(db.selectFrom('roles').selectAll().where('id', 'in', ids).orderBy('id'), dialect).execute();
  },

  /** The role's grants with the menu codes, ordered by menu code. */
  grants(db: Kysely<Database>, roleId: string) {
    return db
      .selectFrom('role_menus')
      .innerJoin('menus', 'menus.id', 'role_menus.menu_id')
      .select(['role_menus.menu_id as menuId', 'menus.code as menuCode', 'role_menus.bits'])
      .where('role_menus.role_id', '=', roleId)
      .orderBy('menus.code')
      .execute();
  },

  /** The role that has `code`, other than `exceptId`. */
  async codeOwner(db: Kysely<Database>, code: string, exceptId?: string) {
    let q = db.selectFrom('roles').select(['code', 'name']).where('code', '=', code);
    if (exceptId) q = q.where('id', '!=', exceptId);
    return q.executeTakeFirst();
  },

  /**
   * The role whose name is the same as `name` once compared by roleNameKey, other than `exceptId`. Every name is read:
   * roles are a short list, and SQL has no NFKC on SQLite.
   */
  async nameOwner(db: Kysely<Database>, name: string, exceptId?: string) {
    const key = roleNameKey(name);
    const rows = await db.selectFrom('roles').select(['id', 'code', 'name']).orderBy('id').execute();
    return rows.find((r) => r.id !== exceptId && roleNameKey(r.name) === key);
  },

  async setGrants(
    db: Kysely<Database>,
    roleId: string,
    grants: Array<{ menuId: string; bits: number }>,
  ): Promise<void> {
    await db.deleteFrom('role_menus').where('role_id', '=', roleId).execute();
    if (grants.length)
      await db
        .insertInto('role_menus')
        .values(grants.map((g) => ({ role_id: roleId, menu_id: g.menuId, bits: g.bits })))
        .execute();
  },

  /** Deletes the roles with their user assignments and grants; returns how many roles were deleted. */
  async deleteMany(db: Kysely<Database>, ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    await db.deleteFrom('user_roles').where('role_id', 'in', ids).execute();
    await db.deleteFrom('role_menus').where('role_id', 'in', ids).execute();
    const res = await db.deleteFrom('roles').where('id', 'in', ids).executeTakeFirst();
    return Number(res.numDeletedRows);
  },
};
