import { describe, expect, it } from 'vitest';
import { findMenuByRoute, leafMenus, menuOfRoute, routeOfMenu } from './menu-routes';

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

  it('every content library menu opens the generic content page with its library', () => {
    expect(routeOfMenu(tree[1].children[0])).toBe('/content/holidays');
    expect(menuOfRoute('/content/holidays')).toBe('content:holidays');
  });

  it('a menu without a page opens a placeholder at its own path; the home page needs no menu', () => {
    expect(routeOfMenu(tree[0].children[1])).toBe('/m/reports');
    expect(findMenuByRoute(tree, '/m/reports')?.code).toBe('reports');
    expect(menuOfRoute('/')).toBeUndefined();
  });

  it('lists the leaves depth first', () => {
    expect(leafMenus(tree).map((m) => m.code)).toEqual(['system:user', 'reports', 'content:holidays']);
  });
});
