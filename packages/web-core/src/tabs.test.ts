import { describe, expect, it } from 'vitest';
import { pageTabs } from './tabs';

const memory = () => {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
};
const home = { path: '/', title: '首页' };

describe('page tabs', () => {
  it('opens one tab per page, closes to the neighbour, and keeps home', () => {
    const tabs = pageTabs({ home, storage: memory() });
    tabs.visit({ path: '/system/users', title: '用户管理' });
    tabs.visit({ path: '/system/roles', title: '角色管理' });
    tabs.visit({ path: '/system/users', title: '用户管理' });
    expect(tabs.state.tabs.map((t) => t.path)).toEqual(['/', '/system/users', '/system/roles']);
    expect(tabs.close('/system/users', '/system/users')).toBe('/system/roles');
    expect(tabs.close('/system/roles', '/system/roles')).toBe('/');
    expect(tabs.close('/', '/')).toBeUndefined();
    expect(tabs.state.tabs).toEqual([home]);
  });

  it('close others keeps home and the current tab; a reload keeps the tabs', () => {
    const storage = memory();
    const tabs = pageTabs({ home, storage });
    for (const p of ['/a', '/b', '/c']) tabs.visit({ path: p, title: p });
    tabs.closeOthers('/b');
    expect(tabs.state.tabs.map((t) => t.path)).toEqual(['/', '/b']);
    expect(pageTabs({ home, storage }).state.tabs.map((t) => t.path)).toEqual(['/', '/b']);
  });

  it('drops the oldest tab past the limit', () => {
    const tabs = pageTabs({ home, max: 3, storage: memory() });
    for (const p of ['/a', '/b', '/c']) tabs.visit({ path: p, title: p });
    expect(tabs.state.tabs.map((t) => t.path)).toEqual(['/', '/b', '/c']);
  });
});
