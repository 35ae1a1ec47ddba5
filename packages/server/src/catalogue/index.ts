import { LIBRARIES, type LibraryName } from './content-libraries.js';

/**
 * The one catalogue of built-in menus (better-auth's createAccessControl, in spirit): every menu code, its place in
 * the tree, names, icon, the admin API prefix whose routes it guards and the admin-app page that shows it. The seed,
 * the route declarations, the admin app's router and menu names, and `@tianji/client` (through the generated
 * `packages/client/src/generated/catalogue.ts`) all derive from here; `test/catalogue.test.ts` fails when a menu code
 * is written anywhere else in the sources.
 *
 * The permission points are the other half of the catalogue: `admin/permissions/points.ts`.
 */
export interface CatalogueMenu {
  code: string;
  parent: string | null;
  /** Chinese name (what the database holds and the Chinese interface shows). */
  name: string;
  nameEn: string;
  /** The menu's path as the admin app shows it; editable by operators afterwards. */
  path: string;
  /** A lucide icon name. */
  icon: string;
  sort: number;
  /** The admin API prefix whose routes declare this menu (documentation; the guard reads each route's declaration). */
  api?: string;
  /** The built-in admin-app page that shows the menu; absent for a directory. */
  page?: CataloguePage;
}

/** The admin app's built-in pages. `content` serves every content library (one page, the library as parameter). */
export type CataloguePage =
  | 'users'
  | 'roles'
  | 'menus'
  | 'audit'
  | 'sessions'
  | 'loginLogs'
  | 'content'
  | 'usage'
  | 'apiKeys'
  | 'serverStatus';

// Generic so that each menu keeps its literal code (MenuCode below).
const menu = <const M extends CatalogueMenu>(m: M) => m;

/** The fixed menus, by a short key the code refers to them with (`MENUS.users.code`). */
export const MENUS = {
  system: menu({
    code: 'system',
    parent: null,
    name: '系统管理',
    nameEn: 'System',
    path: '/system',
    icon: 'settings',
    sort: 10,
  }),
  users: menu({
    code: 'system:user',
    parent: 'system',
    name: '用户管理',
    nameEn: 'Users',
    path: '/system/users',
    icon: 'users',
    sort: 1,
    api: '/api/users',
    page: 'users',
  }),
  roles: menu({
    code: 'system:role',
    parent: 'system',
    name: '角色管理',
    nameEn: 'Roles',
    path: '/system/roles',
    icon: 'shield',
    sort: 2,
    api: '/api/roles',
    page: 'roles',
  }),
  menus: menu({
    code: 'system:menu',
    parent: 'system',
    name: '菜单管理',
    nameEn: 'Menus',
    path: '/system/menus',
    icon: 'list-tree',
    sort: 3,
    api: '/api/menus',
    page: 'menus',
  }),
  audit: menu({
    code: 'system:audit',
    parent: 'system',
    name: '审计日志',
    nameEn: 'Audit log',
    path: '/system/audit-logs',
    icon: 'scroll-text',
    sort: 4,
    api: '/api/audit-logs',
    page: 'audit',
  }),
  sessions: menu({
    code: 'system:session',
    parent: 'system',
    name: '在线会话',
    nameEn: 'Online sessions',
    path: '/system/sessions',
    icon: 'monitor-smartphone',
    sort: 5,
    api: '/api/sessions',
    page: 'sessions',
  }),
  loginLogs: menu({
    code: 'system:login-log',
    parent: 'system',
    name: '登录日志',
    nameEn: 'Sign-in log',
    path: '/system/login-logs',
    icon: 'log-in',
    sort: 6,
    api: '/api/login-logs',
    page: 'loginLogs',
  }),
  content: menu({
    code: 'content',
    parent: null,
    name: '内容管理',
    nameEn: 'Content',
    path: '/content',
    icon: 'library',
    sort: 20,
  }),
  monitor: menu({
    code: 'monitor',
    parent: null,
    name: '监控',
    nameEn: 'Monitoring',
    path: '/monitor',
    icon: 'activity',
    sort: 30,
  }),
  usage: menu({
    code: 'monitor:api',
    parent: 'monitor',
    name: '接口统计',
    nameEn: 'API usage',
    path: '/monitor/api',
    icon: 'chart-line',
    sort: 1,
    api: '/api/admin/usage',
    page: 'usage',
  }),
  apiKeys: menu({
    code: 'monitor:api-key',
    parent: 'monitor',
    name: '接口密钥',
    nameEn: 'API keys',
    path: '/monitor/api-keys',
    icon: 'key-round',
    sort: 2,
    api: '/api/admin/api-keys',
    page: 'apiKeys',
  }),
  serverStatus: menu({
    code: 'monitor:server',
    parent: 'monitor',
    name: '服务监控',
    nameEn: 'Server status',
    path: '/monitor/server',
    icon: 'server',
    sort: 3,
    api: '/api/admin/server-status',
    page: 'serverStatus',
  }),
} as const satisfies Record<string, CatalogueMenu>;

/** The menu of a content library: `content:<library>`, guarding /api/admin/content/<library>. */
export const contentMenuCode = (library: LibraryName) => `${MENUS.content.code}:${library}` as const;

/** Every built-in menu's code, as a type: a route's `config.auth.menu` (admin/auth/guard.ts) names one of these. */
export type MenuCode = (typeof MENUS)[keyof typeof MENUS]['code'] | ReturnType<typeof contentMenuCode>;

/** Every built-in menu, parents before children (the content libraries come from catalogue/content-libraries.ts). */
export const CATALOGUE: readonly CatalogueMenu[] = [
  ...Object.values(MENUS),
  ...LIBRARIES.map((lib, i) => ({
    code: contentMenuCode(lib.name),
    parent: MENUS.content.code,
    name: lib.label,
    nameEn: lib.labelEn,
    path: `${MENUS.content.path}/${lib.name}`,
    icon: lib.icon,
    sort: i + 1,
    api: `/api/admin/content/${lib.name}`,
    page: 'content' as const,
  })),
];
