import { describe, expect, it } from 'vitest';
import { applyTabCommand, pageTabs, tabCommandsFor } from './tabs';

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
    tabs.run('closeOthers', '/b', '/b');
    expect(tabs.state.tabs.map((t) => t.path)).toEqual(['/', '/b']);
    expect(pageTabs({ home, storage }).state.tabs.map((t) => t.path)).toEqual(['/', '/b']);
  });

  it('drops the oldest tab past the limit', () => {
    const tabs = pageTabs({ home, max: 3, storage: memory() });
    for (const p of ['/a', '/b', '/c']) tabs.visit({ path: p, title: p });
    expect(tabs.state.tabs.map((t) => t.path)).toEqual(['/', '/b', '/c']);
  });

  it('drops the oldest unpinned tab past the limit, never a pinned one', () => {
    const tabs = pageTabs({ home, max: 3, storage: memory() });
    tabs.visit({ path: '/a', title: 'a' });
    tabs.run('pin', '/a', '/a');
    for (const p of ['/b', '/c']) tabs.visit({ path: p, title: p });
    expect(tabs.state.tabs.map((t) => t.path)).toEqual(['/', '/a', '/c']);
  });
});

const paths = (tabs: { path: string }[]) => tabs.map((t) => t.path);
const open = (...ps: string[]) => [home, ...ps.map((p) => ({ path: p, title: p }))];

describe('tab context menu commands', () => {
  it('close left / right / others keep home and pinned tabs', () => {
    const pinned = applyTabCommand(open('/a', '/b', '/c', '/d'), 'pin', '/c');
    expect(paths(pinned)).toEqual(['/', '/c', '/a', '/b', '/d']);
    expect(paths(applyTabCommand(pinned, 'closeLeft', '/b'))).toEqual(['/', '/c', '/b', '/d']);
    expect(paths(applyTabCommand(pinned, 'closeRight', '/a'))).toEqual(['/', '/c', '/a']);
    expect(paths(applyTabCommand(pinned, 'closeOthers', '/d'))).toEqual(['/', '/c', '/d']);
    expect(paths(applyTabCommand(pinned, 'closeAll', '/d'))).toEqual(['/', '/c']);
    expect(paths(applyTabCommand(pinned, 'close', '/c'))).toEqual(paths(pinned));
    expect(paths(applyTabCommand(pinned, 'close', '/'))).toEqual(paths(pinned));
  });

  it('pinning moves a tab after the pinned ones; unpinning moves it just after them', () => {
    let tabs = applyTabCommand(open('/a', '/b', '/c'), 'pin', '/b');
    tabs = applyTabCommand(tabs, 'pin', '/c');
    expect(paths(tabs)).toEqual(['/', '/b', '/c', '/a']);
    tabs = applyTabCommand(tabs, 'unpin', '/b');
    expect(paths(tabs)).toEqual(['/', '/c', '/b', '/a']);
    expect(tabs.filter((t) => t.pinned).map((t) => t.path)).toEqual(['/c']);
    expect(paths(applyTabCommand(tabs, 'pin', '/'))).toEqual(paths(tabs));
  });

  it('says which commands do something on a tab', () => {
    const tabs = applyTabCommand(open('/a', '/b'), 'pin', '/a');
    expect(tabCommandsFor(tabs, '/a')).toMatchObject({
      close: false,
      pin: false,
      unpin: true,
      closeLeft: false,
      closeRight: true,
    });
    expect(tabCommandsFor(tabs, '/b')).toMatchObject({
      close: true,
      pin: true,
      closeLeft: false,
      closeRight: false,
      closeOthers: false,
    });
    expect(tabCommandsFor(tabs, '/')).toMatchObject({ close: false, pin: false, unpin: false, closeOthers: true });
  });

  it('goes to a neighbour or to the tab the command was on when the page shown lost its tab', () => {
    const tabs = pageTabs({ home, storage: memory() });
    for (const p of ['/a', '/b', '/c', '/d']) tabs.visit({ path: p, title: p });
    expect(tabs.run('closeRight', '/c', '/b')).toBeUndefined();
    expect(tabs.run('closeLeft', '/c', '/a')).toBe('/c');
    expect(paths(tabs.state.tabs)).toEqual(['/', '/c']);
    tabs.visit({ path: '/e', title: '/e' });
    expect(tabs.run('pin', '/e', '/e')).toBeUndefined();
    expect(paths(tabs.state.tabs)).toEqual(['/', '/e', '/c']);
    expect(tabs.run('closeAll', '/c', '/c')).toBe('/');
    expect(tabs.close('/e', '/e')).toBeUndefined();
    tabs.reset();
    expect(tabs.state.tabs).toEqual([home]);
  });
});
