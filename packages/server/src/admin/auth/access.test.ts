import { describe, expect, it } from 'vitest';
import { buildMenuTree, grantsFrom, menuMask } from './access.js';
import type { GrantRow, MenuRow } from './access-cache.js';

const menu = (id: string, parent: string | null, sort = 0): MenuRow => ({
  id,
  parent_id: parent,
  code: id,
  name: id,
  path: `/${id}`,
  icon: '',
  sort,
  kind: 'page',
  target: '',
});
const MENUS = [
  menu('system', null, 10),
  menu('system:user', 'system', 1),
  menu('system:role', 'system', 2),
  menu('content', null, 20),
  menu('content:poems', 'content', 1),
];
const grant = (role: string, menuCode: string | null, bits: number | null, code = role): GrantRow => ({
  id: role,
  code,
  name: role,
  sort: 0,
  require_totp: 0,
  menuCode,
  bits,
});

describe('grantsFrom', () => {
  it('ORs each menu over the roles and the aggregate over the menus', () => {
    const g = grantsFrom([grant('a', 'system:user', 1), grant('b', 'system:user', 4), grant('b', 'system:role', 256)]);
    expect(g.menuMasks).toEqual(
      new Map([
        ['system:user', 5],
        ['system:role', 256],
      ]),
    );
    expect(g.aggregate).toBe(261);
    expect(g.roles.map((r) => r.id)).toEqual(['a', 'b']);
    expect(g.isSuper).toBe(false);
  });

  it('keeps a role without grants and gives it nothing', () => {
    expect(grantsFrom([grant('a', null, null)])).toMatchObject({ roles: [{ id: 'a' }], aggregate: 0 });
  });

  it('makes the super administrator all ones on every menu, granted or not', () => {
    const g = grantsFrom([grant('s', 'system:user', -1, 'super_admin')]);
    expect(g.aggregate).toBe(-1);
    expect(menuMask(g, 'content:poems')).toBe(-1);
  });
});

describe('buildMenuTree', () => {
  it('shows granted menus (bits 0 included) with the ancestors they need at 0, ordered by sort', () => {
    const tree = buildMenuTree(MENUS, grantsFrom([grant('a', 'system:role', 0), grant('a', 'system:user', 1)]));
    expect(tree.map((n) => [n.code, n.permissions])).toEqual([['system', 0]]);
    expect(tree[0].children.map((n) => [n.code, n.permissions])).toEqual([
      ['system:user', 1],
      ['system:role', 0],
    ]);
  });

  it('shows nothing to a user without grants and everything to the super administrator', () => {
    expect(buildMenuTree(MENUS, grantsFrom([]))).toEqual([]);
    const all = buildMenuTree(MENUS, grantsFrom([grant('s', null, null, 'super_admin')]));
    expect(all.map((n) => n.code)).toEqual(['system', 'content']);
    expect(all[1].children[0].permissions).toBe(-1);
  });
});
