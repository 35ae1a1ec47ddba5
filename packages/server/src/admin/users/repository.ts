import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { RoleRef } from '../auth/access.js';
import { containsText, offsetOf } from '../shared/query.js';
import type { PageQuery } from '../shared/schemas.js';
import type { UserDto, UserFilterQuery } from './schemas.js';
import { usernameKey } from '../shared/username-key.js';

type UserRow = Pick<
  Selectable<Database['users']>,
  'id' | 'username' | 'nickname' | 'status' | 'created_at' | 'updated_at'
> & {
  totp_enabled_at: string | null;
};
const COLUMNS = [
  'users.id',
  'users.username',
  'users.nickname',
  'users.status',
  'users.totp_enabled_at',
  'users.created_at',
  'users.updated_at',
] as const;

function filtered<O>(qb: SelectQueryBuilder<Database, 'users', O>, f: UserFilterQuery) {
  let q = qb;
  if (f.keyword)
    q = q.where((eb) =>
      eb.or([containsText('users.username', f.keyword!), containsText('users.nickname', f.keyword!)]),
    );
  if (f.status) q = q.where('users.status', '=', f.status);
  return q;
}

/** Users with their roles: every query here takes the database or a transaction. */
export const usersRepository = {
  async rolesOf(db: Kysely<Database>, userIds: string[]): Promise<Map<string, RoleRef[]>> {
    const out = new Map<string, RoleRef[]>(userIds.map((id) => [id, []]));
    if (userIds.length === 0) return out;
    const rows = await db
      .selectFrom('user_roles')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .select(['user_roles.user_id', 'roles.id', 'roles.code', 'roles.name'])
      .where('user_roles.user_id', 'in', userIds)
      .orderBy('roles.sort')
      .orderBy('roles.code')
      .execute();
    for (const r of rows) out.get(r.user_id)?.push({ id: r.id, code: r.code, name: r.name });
    return out;
  },

  /** How many passkeys each user has (0 for none). */
  async passkeyCounts(db: Kysely<Database>, userIds: string[]): Promise<Map<string, number>> {
    if (userIds.length === 0) return new Map();
    const rows = await db
      .selectFrom('passkeys')
      .select(['user_id', (eb) => eb.fn.countAll<string | number>().as('n')])
      .where('user_id', 'in', userIds)
      .groupBy('user_id')
      .execute();
    return new Map(rows.map((r) => [r.user_id, Number(r.n)]));
  },

  async withRoles(db: Kysely<Database>, rows: UserRow[]): Promise<UserDto[]> {
    const ids = rows.map((r) => r.id);
    const [roles, passkeys] = await Promise.all([this.rolesOf(db, ids), this.passkeyCounts(db, ids)]);
    return rows.map((r) => ({
      id: r.id,
      username: r.username,
      nickname: r.nickname,
      status: r.status,
      roles: roles.get(r.id) ?? [],
      totpEnabled: r.totp_enabled_at !== null,
      passkeys: passkeys.get(r.id) ?? 0,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    }));
  },

  /** Newest first; ties broken by username so pages are stable. */
  async list(db: Kysely<Database>, q: PageQuery & UserFilterQuery, limit = q.pageSize, offset = offsetOf(q)) {
    const { total } = await filtered(db.selectFrom('users'), q)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    const rows = await filtered(db.selectFrom('users').select(COLUMNS), q)
      .orderBy('users.created_at', 'desc')
      .orderBy('users.username')
      .limit(limit)
      .offset(offset)
      .execute();
    return { items: await this.withRoles(db, rows), total: Number(total) };
  },

  async find(db: Kysely<Database>, id: string): Promise<UserDto | undefined> {
    const row = await db.selectFrom('users').select(COLUMNS).where('id', '=', id).executeTakeFirst();
    return row ? (await this.withRoles(db, [row]))[0] : undefined;
  },

  async findMany(db: Kysely<Database>, ids: string[]) {
    return db.selectFrom('users').select(['id', 'username', 'status']).where('id', 'in', ids).execute();
  },

  async usernameTaken(db: Kysely<Database>, username: string, exceptId?: string): Promise<boolean> {
    let q = db.selectFrom('users').select('id').where('username_key', '=', usernameKey(username));
    if (exceptId) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  },

  /** Replaces the user's roles with `roleIds`. */
  async setRoles(db: Kysely<Database>, userId: string, roleIds: string[]): Promise<void> {
    await db.deleteFrom('user_roles').where('user_id', '=', userId).execute();
    if (roleIds.length)
      await db
        .insertInto('user_roles')
        .values(roleIds.map((role_id) => ({ user_id: userId, role_id })))
        .execute();
  },

  /** Deletes the users with their role assignments and refresh tokens; returns how many users were deleted. */
  async deleteMany(db: Kysely<Database>, ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    await db.deleteFrom('user_roles').where('user_id', 'in', ids).execute();
    await db.deleteFrom('refresh_tokens').where('user_id', 'in', ids).execute();
    const res = await db.deleteFrom('users').where('id', 'in', ids).executeTakeFirst();
    return Number(res.numDeletedRows);
  },
};
