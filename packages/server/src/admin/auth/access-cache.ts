import { sql, type Compilable, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { changeStampOf } from '../../db/index.js';

/**
 * The database side of UserAccess, built for the hot path: every authenticated request reads the user's row
 * together with `access_revision`, a counter database triggers bump on any change to roles, user_roles,
 * role_menus or menus (migration 0004). Roles, grants and menu rows are cached per revision; the user's own row
 * (status, token_version, names, the session's state) is read on every request, except on SQLite, where it is kept
 * only until the next write of any kind (ChangeStamp). So a change of any kind applies from the very next request,
 * on every instance, whoever made it.
 */

/**
 * A query compiled once and run with fresh parameter values: Kysely's builder and compiler cost more than a
 * primary-key lookup itself.
 */
function precompile<R, A extends unknown[]>(build: (...args: A) => Compilable<R>, placeholders: A) {
  const compiled = build(...placeholders).compile();
  const slots = placeholders.map((p) => compiled.parameters.indexOf(p));
  return async (db: Kysely<Database>, ...args: A): Promise<R[]> => {
    const parameters = [...compiled.parameters];
    for (const [i, slot] of slots.entries()) parameters[slot] = args[i];
    return (await db.executeQuery<R>({ ...compiled, parameters })).rows;
  };
}

const USER_ID = '\u0000user-id';
const SESSION_ID = '\u0000session-id';

function compileQueries(db: Kysely<Database>) {
  return {
    // The presented token's session rides along (primary-key join, same round trip): ending a session applies to its
    // access token from the very next request without a cache to invalidate.
    user: precompile(
      (userId: string, sessionId: string) =>
        db
          .selectFrom('users')
          .select([
            'users.id',
            'users.username',
            'users.nickname',
            'users.status',
            'users.token_version',
            'users.sessions_end_reason',
            'users.must_change_password',
            'users.totp_enabled_at',
          ])
          // null: no such session of this user; '': live; else why it ended.
          .select((eb) =>
            eb
              .selectFrom('sessions')
              .select((s) => s.fn.coalesce('sessions.end_reason', sql.lit('')).as('state'))
              .where('sessions.id', '=', sessionId)
              .whereRef('sessions.user_id', '=', 'users.id')
              .as('session_state'),
          )
          .select((eb) => eb.selectFrom('access_revision').select('rev').where('id', '=', 1).as('rev'))
          .where('users.id', '=', userId),
      [USER_ID, SESSION_ID],
    ),
    // Each enabled role of the user with each of its grants, in one round trip.
    grants: precompile(
      (userId: string) =>
        db
          .selectFrom('user_roles as ur')
          .innerJoin('roles as r', (j) => j.onRef('r.id', '=', 'ur.role_id').on('r.status', '=', 'enabled'))
          .leftJoin('role_menus as rm', 'rm.role_id', 'r.id')
          .leftJoin('menus as m', 'm.id', 'rm.menu_id')
          .select(['r.id', 'r.code', 'r.name', 'r.sort', 'r.require_totp', 'm.code as menuCode', 'rm.bits'])
          .where('ur.user_id', '=', userId),
      [USER_ID],
    ),
    menus: precompile(
      () =>
        db.selectFrom('menus').select(['id', 'parent_id', 'code', 'name', 'path', 'icon', 'sort', 'kind', 'target']),
      [],
    ),
  };
}

type Queries = ReturnType<typeof compileQueries>;
export type UserRow = Awaited<ReturnType<Queries['user']>>[number];
export type GrantRow = Awaited<ReturnType<Queries['grants']>>[number];
export type MenuRow = Awaited<ReturnType<Queries['menus']>>[number];

/** Users kept per revision; past this the oldest entries go first. */
const MAX_USERS = 10_000;

export class AccessCache<Derived> {
  private readonly q: Queries;
  private rev = -1;
  private readonly derived = new Map<string, Derived>();
  private menus?: Promise<MenuRow[]>;
  /** SQLite only: the database's change stamp, and each user's row (with the session asked about) as of `rowsStamp`. */
  private readonly stamp?: () => number;
  private rowsStamp = Number.NaN;
  private readonly rows = new Map<string, { user: { row: UserRow; revision: number } | undefined }>();

  constructor(db: Kysely<Database>) {
    this.q = compileQueries(db);
    this.stamp = changeStampOf(db);
  }

  /**
   * The user's row and the access revision it was read with, and the state of session `sessionId` of that user
   * (session columns null when there is no such session); undefined when the user does not exist.
   */
  async user(
    db: Kysely<Database>,
    userId: string,
    sessionId = '',
  ): Promise<{ row: UserRow; revision: number } | undefined> {
    // On SQLite the row is reused while the database's change stamp has not moved (see ChangeStamp): a stamp that
    // moves empties the cache, and a row is filed only under the stamp read before its query, if that is still the
    // last one seen, so a change made while the query waited for the connection is never hidden. A hit costs one
    // `PRAGMA data_version` instead of the query.
    const stamp = this.stamp?.();
    if (stamp !== undefined && stamp !== this.rowsStamp) {
      this.rows.clear();
      this.rowsStamp = stamp;
    }
    const key = stamp === undefined ? undefined : `${userId}\u0000${sessionId}`;
    const hit = key === undefined ? undefined : this.rows.get(key);
    if (hit) return hit.user;
    const [row] = await this.q.user(db, userId, sessionId);
    const user = row && { row, revision: Number(row.rev) };
    if (user && user.revision > this.rev) {
      this.rev = user.revision;
      this.derived.clear();
      this.menus = undefined;
    }
    if (key !== undefined && stamp === this.rowsStamp) {
      if (this.rows.size >= MAX_USERS) this.rows.delete(this.rows.keys().next().value!);
      this.rows.set(key, { user });
    }
    // Not a spread copy of the row: V8 copies a database row's properties one by one through its slow path.
    return user;
  }

  /**
   * What `derive` makes of the user's grants at `revision`, cached while the revision is current. The grants are
   * always read after the revision, so what is cached is never older than the revision it is filed under.
   */
  async derive(
    db: Kysely<Database>,
    userId: string,
    revision: number,
    derive: (rows: GrantRow[]) => Derived,
  ): Promise<Derived> {
    const hit = revision === this.rev ? this.derived.get(userId) : undefined;
    if (hit) return hit;
    const value = derive(await this.q.grants(db, userId));
    if (revision === this.rev) {
      if (this.derived.size >= MAX_USERS) this.derived.delete(this.derived.keys().next().value!);
      this.derived.set(userId, value);
    }
    return value;
  }

  /** Every menu row, as of `revision` or later. */
  menuRows(db: Kysely<Database>, revision: number): Promise<MenuRow[]> {
    if (revision !== this.rev) return this.q.menus(db);
    const rows = (this.menus ??= this.q.menus(db));
    rows.catch(() => (this.menus = undefined));
    return rows;
  }
}
