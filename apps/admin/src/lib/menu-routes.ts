/**
 * Which page of the app shows which menu. Menus are matched by code (stable, route permissions refer to it),
 * not by their editable path; a menu the app has no page for opens a placeholder at its own path.
 */
export interface MenuLike {
  code: string;
  name: string;
  path: string;
  children: MenuLike[];
}

const PAGES: Record<string, string> = {
  'system:user': '/system/users',
  'system:role': '/system/roles',
  'system:menu': '/system/menus',
  'system:audit': '/system/audit-logs',
  'system:session': '/system/sessions',
  'system:login-log': '/system/login-logs',
  'monitor:api': '/monitor/api',
};

const CONTENT = 'content:';

/** The app route that shows a menu. */
export function routeOfMenu(m: { code: string; path: string }): string {
  if (PAGES[m.code]) return PAGES[m.code];
  if (m.code.startsWith(CONTENT)) return `/content/${encodeURIComponent(m.code.slice(CONTENT.length))}`;
  return m.path.startsWith('/') ? `/m${m.path}` : `/m/${encodeURIComponent(m.code)}`;
}

/** The menu whose permissions govern a route, or undefined for pages open to every signed-in user. */
export function menuOfRoute(path: string): string | undefined {
  for (const [code, p] of Object.entries(PAGES)) if (path === p || path.startsWith(`${p}/`)) return code;
  const m = /^\/content\/([^/]+)/.exec(path);
  if (m) return CONTENT + decodeURIComponent(m[1]);
  return undefined;
}

/** Finds a menu by the route that shows it (for placeholders and titles). */
export function findMenuByRoute(nodes: MenuLike[], path: string): MenuLike | undefined {
  for (const n of nodes) {
    if (n.children.length === 0 && routeOfMenu(n) === path) return n;
    const hit = findMenuByRoute(n.children, path);
    if (hit) return hit;
  }
  return undefined;
}

/** Every leaf menu, depth first (the home page lists them). */
export function leafMenus<T extends MenuLike>(nodes: T[]): T[] {
  return nodes.flatMap((n) => (n.children.length ? leafMenus(n.children as T[]) : [n]));
}
