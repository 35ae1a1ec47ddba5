import { MENU_CATALOGUE, type CatalogueMenu } from '@tianji/client';

/**
 * Which page of the app shows which menu, from the catalogue (`MENU_CATALOGUE`, generated from the server's
 * catalogue/index.ts). Menus are matched by code (stable, route permissions refer to it), not by their editable path;
 * a menu the app has no page for opens a placeholder at its own path.
 */
export interface MenuLike {
  code: string;
  name: string;
  path: string;
  /** directory | page | link | embed; `target` is the page's menu code or the URL (server: admin/menus/target.ts). */
  kind?: string;
  target?: string;
  children: MenuLike[];
}

/** The app's built-in pages (the catalogue's `page`), and each menu code shown by one → its route (the catalogue's path). */
export type PageName = Extract<CatalogueMenu, { page: string }>['page'];
const PAGES = new Map<string, string>(MENU_CATALOGUE.flatMap((m) => ('page' in m ? [[m.code, m.path] as const] : [])));

/** The route of a built-in page: `routeOfPage('sessions') === '/system/sessions'`. */
export function routeOfPage(page: PageName): string {
  return MENU_CATALOGUE.find((m) => 'page' in m && m.page === page)!.path;
}

/** The app routes of the built-in pages: one per menu, the content libraries sharing one page with a parameter. */
export function pageRoutes(): Array<{ path: string; page: PageName }> {
  const out = new Map<string, PageName>();
  for (const m of MENU_CATALOGUE) {
    if (!('page' in m)) continue;
    out.set(m.page === 'content' ? `${m.path.slice(0, m.path.lastIndexOf('/'))}/:library` : m.path, m.page);
  }
  return [...out].map(([path, page]) => ({ path, page }));
}

/**
 * The app route that shows a menu: its built-in page whatever its path was edited to; for an operator's menu, the
 * built-in page it points at, or the page that opens its link or frames its embedded page; else a placeholder that
 * says the menu has no page yet.
 */
export function routeOfMenu(m: Pick<MenuLike, 'code' | 'path' | 'kind' | 'target'>): string {
  const own = PAGES.get(m.code);
  if (own) return own;
  if (m.kind === 'page' && m.target && PAGES.has(m.target)) return PAGES.get(m.target)!;
  if (m.kind === 'link' || m.kind === 'embed') return `/${m.kind}/${encodeURIComponent(m.code)}`;
  return m.path.startsWith('/') ? `/m${m.path}` : `/m/${encodeURIComponent(m.code)}`;
}

/** The menu whose permissions govern a route, or undefined for pages open to every signed-in user. */
export function menuOfRoute(path: string): string | undefined {
  const decoded = safeDecode(path);
  for (const [code, p] of PAGES) if (decoded === p || decoded.startsWith(`${p}/`)) return code;
  return undefined;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Finds a menu by the route that shows it (for placeholders and titles). */
export function findMenuByRoute(nodes: MenuLike[], path: string): MenuLike | undefined {
  return menuTrail(nodes, path).at(-1);
}

/** The menus from the top of the tree down to the one a route shows (the breadcrumb: 系统管理 / 用户管理). */
export function menuTrail(nodes: MenuLike[], path: string): MenuLike[] {
  for (const n of nodes) {
    if (n.children.length === 0 && routeOfMenu(n) === path) return [n];
    const below = menuTrail(n.children, path);
    if (below.length) return [n, ...below];
  }
  return [];
}

/** Every leaf menu, depth first (the home page lists them). */
export function leafMenus<T extends MenuLike>(nodes: T[]): T[] {
  return leavesWithTrail(nodes).map((l) => l.menu);
}

/** Every leaf menu with the menus above it, depth first (the menu search shows 系统管理 › 用户管理). */
export function leavesWithTrail<T extends MenuLike>(nodes: T[], above: T[] = []): Array<{ menu: T; trail: T[] }> {
  return nodes.flatMap((n) =>
    n.children.length ? leavesWithTrail(n.children as T[], [...above, n]) : [{ menu: n, trail: above }],
  );
}
