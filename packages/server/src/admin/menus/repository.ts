import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Dialect } from '../../db/index.js';
import { lockForWrite } from '../shared/query.js';

export type MenuRow = Selectable<Database['menus']>;

export const menusRepository = {
  all(db: Kysely<Database>): Promise<MenuRow[]> {
    return db.selectFrom('menus').selectAll().execute();
  },

  find(db: Kysely<Database>, id: string): Promise<MenuRow | undefined> {
    return db.selectFrom('menus').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** The row, locked on PostgreSQL until the transaction ends (so a parent cannot vanish under a new child). */
  findForUpdate(db: Kysely<Database>, id: string, dialect: Dialect): Promise<MenuRow | undefined> {
    return lockForWrite(db.selectFrom('menus').selectAll().where('id', '=', id), dialect).executeTakeFirst();
  },

  /** Every menu, locked on PostgreSQL: moves are checked against the whole tree, so two moves cannot build a cycle together. */
  allForUpdate(db: Kysely<Database>, dialect: Dialect): Promise<MenuRow[]> {
    return lockForWrite(db.selectFrom('menus').selectAll().orderBy('id'), dialect).execute();
  },

  async codeTaken(db: Kysely<Database>, code: string, exceptId?: string): Promise<boolean> {
    let q = db.selectFrom('menus').select('id').where('code', '=', code);
    if (exceptId) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  },

  async deleteMany(db: Kysely<Database>, ids: string[]): Promise<void> {
    await db.deleteFrom('role_menus').where('menu_id', 'in', ids).execute();
    await db.deleteFrom('menus').where('id', 'in', ids).execute();
  },
};

/** Ids of every descendant of `id` (not `id` itself), from a full list of rows. */
export function descendantsOf(rows: Pick<MenuRow, 'id' | 'parent_id'>[], id: string): string[] {
  const children = new Map<string, string[]>();
  for (const r of rows) if (r.parent_id) children.set(r.parent_id, [...(children.get(r.parent_id) ?? []), r.id]);
  const out: string[] = [];
  const stack = [...(children.get(id) ?? [])];
  while (stack.length) {
    const cur = stack.pop()!;
    out.push(cur);
    stack.push(...(children.get(cur) ?? []));
  }
  return out;
}
