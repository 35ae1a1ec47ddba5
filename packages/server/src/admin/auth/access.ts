import { assembleTree } from '../shared/tree.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { orMasks, SUPER_MASK } from '../permissions/mask.js';
import { AccessCache, type GrantRow, type MenuRow } from './access-cache.js';

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
  kind: string;
  target: string;
  /** This menu's own mask for the user (OR over the user's enabled roles); -1 for the super administrator. */
  permissions: number;
  children: MenuNode[];
}

/** What a user's roles and grants amount to; cached per access revision and shared by that user's requests (read-only). */
export interface Grants {
  roles: RoleRef[];
  isSuper: boolean;
  /** menu code → mask, from the grants of the enabled roles (use `menuMask`, which also covers the super administrator) */
  menuMasks: Map<string, number>;
  /** OR over every menu */
  aggregate: number;
  /** An enabled role of the user requires TOTP sign-in. */
  requireTotp: boolean;
  /** The visible menu tree, built on first use. */
  tree?: Promise<MenuNode[]>;
}

/**
 * What the server knows about a signed-in user on every request. The user's row is read on every request (on SQLite,
 * kept until the database next changes) and the grants are cached only while nothing that feeds them has changed (see
 * access-cache.ts), so a change of roles, grants, status or token_version applies from the very next request.
 */
export interface UserAccess extends Omit<Grants, 'tree'> {
  id: string;
  username: string;
  nickname: string;
  status: 'enabled' | 'disabled';
  tokenVersion: number;
  /** The password was set by someone else: admin routes answer 403 PASSWORD_CHANGE_REQUIRED until it is changed. */
  mustChangePassword: boolean;
  /** TOTP is enabled for this user. */
  totpEnabled: boolean;
  /** Why token_version was last raised (a 401 code), if recorded. */
  sessionsEndReason: string | null;
  /** The session asked about: whether it exists for this user and why it ended (null while it lasts). */
  session?: { id: string; endReason: string | null };
  /** The access revision this was read at, and the (shared) grants it came from. */
  revision: number;
  grants: Grants;
}

const caches = new WeakMap<Kysely<Database>, AccessCache<Grants>>();
function cacheFor(db: Kysely<Database>) {
  let c = caches.get(db);
  if (!c) caches.set(db, (c = new AccessCache<Grants>(db)));
  return c;
}

/** The OR of the grants of the user's enabled roles, per menu; the super administrator role means all ones. */
export function grantsFrom(rows: GrantRow[]): Grants {
  const roles = new Map<string, RoleRef & { sort: number }>();
  const menuMasks = new Map<string, number>();
  for (const row of rows) {
    if (!roles.has(row.id)) roles.set(row.id, { id: row.id, code: row.code, name: row.name, sort: Number(row.sort) });
    if (row.menuCode) menuMasks.set(row.menuCode, orMasks([menuMasks.get(row.menuCode) ?? 0, Number(row.bits)]));
  }
  const ordered = [...roles.values()].sort(
    (a, b) => a.sort - b.sort || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
  );
  const isSuper = ordered.some((r) => r.code === SUPER_ADMIN_ROLE);
  const requireTotp = rows.some((r) => Number(r.require_totp) === 1);
  return {
    roles: ordered.map(({ id, code, name }) => ({ id, code, name })),
    isSuper,
    requireTotp,
    menuMasks,
    aggregate: isSuper ? SUPER_MASK : orMasks(menuMasks.values()),
  };
}

export async function loadUserAccess(
  db: Kysely<Database>,
  userId: string,
  sessionId?: string,
): Promise<UserAccess | undefined> {
  const cache = cacheFor(db);
  const user = await cache.user(db, userId, sessionId);
  if (!user) return undefined;
  const { row, revision } = user;
  const grants = await cache.derive(db, userId, revision, grantsFrom);
  // Every field written out, not spread from the row and the grants: a literal of one shape stays on V8's fast
  // path, where a spread of a database row and a rest copy of the grants went through its slow one on every request.
  return {
    id: row.id,
    username: row.username,
    nickname: row.nickname,
    status: row.status,
    tokenVersion: Number(row.token_version),
    sessionsEndReason: row.sessions_end_reason,
    mustChangePassword: Number(row.must_change_password) === 1,
    totpEnabled: row.totp_enabled_at !== null,
    session:
      sessionId && row.session_state !== null ? { id: sessionId, endReason: row.session_state || null } : undefined,
    revision,
    roles: grants.roles,
    isSuper: grants.isSuper,
    menuMasks: grants.menuMasks,
    aggregate: grants.aggregate,
    requireTotp: grants.requireTotp,
    grants,
  };
}

/** The user's mask on one menu; undefined when no enabled role holds a grant on it. The super administrator holds all ones everywhere. */
export const menuMask = (access: Pick<Grants, 'isSuper' | 'menuMasks'>, menuCode: string): number | undefined =>
  access.isSuper ? SUPER_MASK : access.menuMasks.get(menuCode);

/**
 * The visible menu tree: every menu the user holds a grant on (bits 0 included), plus the ancestors needed to reach
 * it (an ancestor without its own grant carries permissions 0). Siblings are ordered by `sort`, then code.
 * Built once per user and access revision; callers must not modify it.
 */
export function visibleMenuTree(db: Kysely<Database>, access: UserAccess): Promise<MenuNode[]> {
  const { grants } = access;
  const build = async () => buildMenuTree(await cacheFor(db).menuRows(db, access.revision), grants);
  if (!grants.tree) {
    grants.tree = build();
    grants.tree.catch(() => (grants.tree = undefined));
  }
  return grants.tree;
}

export function buildMenuTree(all: MenuRow[], grants: Pick<Grants, 'isSuper' | 'menuMasks'>): MenuNode[] {
  const byId = new Map(all.map((m) => [m.id, m]));
  const visible = new Set<string>();
  for (const m of all) {
    if (menuMask(grants, m.code) === undefined) continue;
    for (
      let cur: MenuRow | undefined = m;
      cur && !visible.has(cur.id);
      cur = cur.parent_id ? byId.get(cur.parent_id) : undefined
    ) {
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
      kind: m.kind,
      target: m.target,
      permissions: menuMask(grants, m.code) ?? 0,
      children: [],
    });
  }
  return assembleTree(nodes);
}
