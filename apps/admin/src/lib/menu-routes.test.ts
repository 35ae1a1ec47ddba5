import { describe, expect, it } from 'vitest';
import { findMenuByRoute, leafMenus, menuOfRoute, menuTrail, routeOfMenu, routeOfPage } from './menu-routes';

const tree = [
  {
    code: 'system',
    name: '系统管理',
    path: '/system',
    children: [
      { code: 'system:user', name: '用户管理', path: '/renamed/by/admin', children: [] },
      { code: 'reports', name: '报表', path: '/reports', children: [] },
    ],
  },
  {
    code: 'content',
    name: '内容管理',
    path: '/content',
    children: [{ code: 'content:holidays', name: '节假日安排', path: '/content/holidays', children: [] }],
  },
];

describe('menus ↔ pages', () => {
  it('a built-in menu opens its page whatever its path was edited to', () => {
    expect(routeOfMenu(tree[0].children[0])).toBe('/system/users');
    expect(menuOfRoute('/system/users')).toBe('system:user');
  });

  it('finds a built-in page’s route by the page (the home tiles link so)', () => {
    expect(routeOfPage('sessions')).toBe('/system/sessions');
    expect(routeOfPage('loginLogs')).toBe('/system/login-logs');
    expect(routeOfPage('usage')).toBe('/monitor/api');
  });

  it('every content library menu opens the generic content page with its library', () => {
    expect(routeOfMenu(tree[1].children[0])).toBe('/content/holidays');
    expect(menuOfRoute('/content/holidays')).toBe('content:holidays');
  });

  it('a menu without a page opens a placeholder at its own path; the home page needs no menu', () => {
    expect(routeOfMenu(tree[0].children[1])).toBe('/m/reports');
    expect(findMenuByRoute(tree, '/m/reports')?.code).toBe('reports');
    expect(menuOfRoute('/')).toBeUndefined();
  });

  it('gives the breadcrumb of a route: its menus from the top down', () => {
    expect(menuTrail(tree, '/system/users').map((m) => m.name)).toEqual(['系统管理', '用户管理']);
    expect(menuTrail(tree, '/nowhere')).toEqual([]);
  });

  it('lists the leaves depth first', () => {
    expect(leafMenus(tree).map((m) => m.code)).toEqual(['system:user', 'reports', 'content:holidays']);
  });
});

describe('operator menus by kind', () => {
  const base = { name: 'x', path: '/ops/x', children: [] };
  it('a page menu shows the built-in page it points at, and governs nothing of its own', () => {
    const m = { ...base, code: 'ops:people', kind: 'page', target: 'system:user' };
    expect(routeOfMenu(m)).toBe('/system/users');
    expect(menuOfRoute(routeOfMenu(m))).toBe('system:user');
  });
  it('a page menu with no page chosen (or an unknown one) gets the placeholder', () => {
    expect(routeOfMenu({ ...base, code: 'ops:none', kind: 'page', target: '' })).toBe('/m/ops/x');
    expect(routeOfMenu({ ...base, code: 'ops:gone', kind: 'page', target: 'system:nothing' })).toBe('/m/ops/x');
  });
  it('link and embed menus get their own route, found again from it', () => {
    const link = { ...base, code: 'ops:docs', kind: 'link', target: 'https://docs.example.com' };
    const embed = { ...base, code: 'ops:grafana', kind: 'embed', target: 'https://grafana.example.com/d/1' };
    expect(routeOfMenu(link)).toBe('/link/ops%3Adocs');
    expect(routeOfMenu(embed)).toBe('/embed/ops%3Agrafana');
    expect(findMenuByRoute([link, embed], '/embed/ops%3Agrafana')).toBe(embed);
  });
});
