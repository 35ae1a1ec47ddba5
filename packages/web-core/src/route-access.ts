import {
  MENU_CATALOGUE,
  MENU_POINT_ACTIONS,
  PERMISSION_POINTS,
  ROUTE_PERMISSIONS,
  type PermissionName,
  type RouteKey,
} from '@tianji/client';

/**
 * The point an admin route requires (its generated `x-permission`), for the button that calls it: its icon, its
 * name, its `data-action`. Undefined for a route open to every signed-in user.
 */
export function pointOfRoute(route: RouteKey): PermissionName | undefined {
  const decl = ROUTE_PERMISSIONS[route] as 'public' | 'authenticated' | { bits: readonly PermissionName[] };
  return typeof decl === 'object' ? decl.bits[0] : undefined;
}

/** The lucide icon name of a point (`'list-plus'` for ADD_CHILD); `circle` for none. */
export const pointIcon = (point: PermissionName | undefined): string =>
  PERMISSION_POINTS.find((p) => p.value === point)?.icon ?? 'circle';

const ALL_POINTS = PERMISSION_POINTS.reduce((m, p) => m | p.bits, 0);
const BITS = Object.fromEntries(PERMISSION_POINTS.map((p) => [p.value, p.bits])) as Record<PermissionName, number>;

/** Per built-in menu, the OR of the points its routes declare (read once from the generated route declarations). */
const DECLARED: ReadonlyMap<string, number> = (() => {
  const out = new Map<string, number>(MENU_CATALOGUE.map((m) => [m.code, 0]));
  for (const decl of Object.values(ROUTE_PERMISSIONS) as Array<
    string | { menu?: string; bits: readonly PermissionName[] }
  >) {
    if (typeof decl !== 'object' || !decl.menu) continue;
    out.set(
      decl.menu,
      decl.bits.reduce((m, b) => m | BITS[b], out.get(decl.menu) ?? 0),
    );
  }
  return out;
})();

/**
 * The points worth granting on a menu: for a built-in one, those its routes declare (登录日志 → SEARCH |
 * EXPORT; a directory → 0, visibility only); for a menu an operator added, all ten (its page may gate any of them).
 */
export const offeredPoints = (menuCode: string): number => DECLARED.get(menuCode) ?? ALL_POINTS;

/**
 * What a point allows on a built-in menu, as its routes' summaries say it (用户管理's 重置 → ['解锁用户']; 接口密钥's
 * 重置 → ['轮换接口密钥']); empty for a menu an operator added (its page decides) or a point the menu does not offer.
 */
export const pointActions = (menuCode: string, point: PermissionName): readonly string[] =>
  (MENU_POINT_ACTIONS as Record<string, Partial<Record<PermissionName, readonly string[]>>>)[menuCode]?.[point] ?? [];
