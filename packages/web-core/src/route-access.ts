import { PERMISSION_POINTS, ROUTE_PERMISSIONS, type PermissionName, type RouteKey } from '@tianji/client';

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
