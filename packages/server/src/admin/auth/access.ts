import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { orMasks, SUPER_MASK } from '../permissions/mask.js';

/** Code of the built-in super administrator role. */
export const SUPER_ADMIN_ROLE = 'super_admin';

export interface RoleRef {
  id: string;
  code: string;
  name: string;
}

export interface MenuNode {
  id: string;
  parentId: string | null;
  code: string;
  name: string;
  path: string;
  icon: string;
  sort: number;
  /** This menu's own mask for the user (OR over the user's enabled roles); -1 for the super administrator. */
  permissions: number;
  children: MenuNode[];
}

/**
 * What the server knows about a signed-in user on every request: read fresh from the database, so a change of
 * roles, grants, status or token_version applies from the very next request.
 */
export interface UserAccess {
  id: string;
  username: string;
  nickname: string;
  status: 'enabled' | 'disabled';
  tokenVersion: number;
  roles: RoleRef[];
  isSuper: boolean;
  /** menu code → mask */
  menuMasks: Map<string, number>;
  /** OR over every menu */
  aggregate: number;
}

export async function loadUserAccess(db: Kysely<Database>, userId: string): Promise<UserAccess | undefined> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'username', 'nickname', 'status', 'token_version'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) return undefined;
  const roles = await db
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select(['roles.id', 'roles.code', 'roles.name'])
    .where('user_roles.user_id', '=', userId)
    .where('roles.status', '=', 'enabled')
    .orderBy('roles.sort')
    .orderBy('roles.code')
    .execute();
  const isSuper = roles.some((r) => r.code === SUPER_ADMIN_ROLE);
  const menuMasks = new Map<string, number>();
  if (isSuper) {
    const menus = await db.selectFrom('menus').select('code').execute();
    for (const m of menus) menuMasks.set(m.code, SUPER_MASK);
  } else if (roles.length) {
    const grants = await db
      .selectFrom('role_menus')
      .innerJoin('menus', 'menus.id', 'role_menus.menu_id')
      .select(['menus.code', 'role_menus.bits'])
      .where(
        'role_menus.role_id',
        'in',
        roles.map((r) => r.id),
      )
      .execute();
    for (const g of grants) menuMasks.set(g.code, orMasks([menuMasks.get(g.code) ?? 0, Number(g.bits)]));
  }
  return {
    id: user.id,
    username: user.username,
    nickname: user.nickname,
    status: user.status,
    tokenVersion: Number(user.token_version),
    roles,
    isSuper,
    menuMasks,
    aggregate: isSuper ? SUPER_MASK : orMasks(menuMasks.values()),
  };
}

/**
 * The visible menu tree: every menu the user holds a grant on (bits 0 included), plus the ancestors needed to reach
 * it (an ancestor without its own grant carries permissions 0). Siblings are ordered by `sort`, then code.
 */
export async function visibleMenuTree(db: Kysely<Database>, access: UserAccess): Promise<MenuNode[]> {
  const all = await db.selectFrom('menus').selectAll().execute();
  const byId = new Map(all.map((m) => [m.id, m]));
  const visible = new Set<string>();
  for (const m of all) {
    if (!access.menuMasks.has(m.code)) continue;
    for (let cur: typeof m | undefined = m; cur && !visible.has(cur.id); cur = cur.parent_id ? byId.get(cur.parent_id) : undefined) {
      visible.add(cur.id);
    }
  }
  const nodes = new Map<string, MenuNode>();
  for (const m of all) {
    if (!visible.has(m.id)) continue;
    nodes.set(m.id, {
      id: m.id,
      parentId: m.parent_id,
      code: m.code,
      name: m.name,
      path: m.path,
      icon: m.icon,
      sort: Number(m.sort),
      permissions: access.menuMasks.get(m.code) ?? 0,
      children: [],
    });
  }
  const roots: MenuNode[] = [];
  for (const n of nodes.values()) {
    const parent = n.parentId ? nodes.get(n.parentId) : undefined;
    (parent ? parent.children : roots).push(n);
  }
  const order = (list: MenuNode[]) => {
    list.sort((a, b) => a.sort - b.sort || a.code.localeCompare(b.code));
    list.forEach((n) => order(n.children));
    return list;
  };
  return order(roots);
}
