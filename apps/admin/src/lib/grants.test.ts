import { describe, expect, it } from 'vitest';
import {
  coverage,
  grantState,
  grantsPayload,
  hasPoint,
  setPoint,
  setSubtree,
  setVisible,
  type TreeLike,
} from './grants';

const tree: TreeLike[] = [
  {
    id: 'sys',
    children: [
      { id: 'user', children: [] },
      { id: 'role', children: [] },
    ],
  },
];

describe('grant editor state', () => {
  it('reads a role’s grants: no grant = hidden, 0 = visible without actions, all-ones = every point', () => {
    const s = grantState(tree, [
      { menuId: 'user', bits: 5 },
      { menuId: 'role', bits: 0 },
      { menuId: 'sys', bits: JSON.parse('9223372036854775807') as number },
    ]);
    expect(s).toEqual({ sys: 1023, user: 5, role: 0 });
    expect(grantState(tree, [])).toEqual({ sys: null, user: null, role: null });
  });

  it('ticking a point on a hidden menu makes it visible; clearing points keeps it visible', () => {
    let s = grantState(tree, []);
    s = setPoint(s, 'user', 4, true);
    expect(s.user).toBe(4);
    s = setPoint(s, 'user', 4, false);
    expect(s.user).toBe(0);
    expect(hasPoint(s, 'user', 4)).toBe(false);
    expect(setPoint(grantState(tree, []), 'role', 4, false).role).toBeNull();
  });

  it('hiding a menu drops its points', () => {
    let s = setPoint(grantState(tree, []), 'user', 5, true);
    s = setVisible(s, 'user', false);
    expect(s.user).toBeNull();
    expect(setVisible(s, 'role', true).role).toBe(0);
  });

  // What each menu offers: the directory nothing (visibility only), users SEARCH|EDIT, roles SEARCH|GRANT.
  const offers: Record<string, number> = { sys: 0, user: 1 | 4, role: 1 | 256 };
  const offered = (n: TreeLike) => offers[n.id];

  it('「全部」 on a parent grants the parent and every child all the points each offers, and no more', () => {
    const s = setSubtree(grantState(tree, []), tree[0], true, offered);
    expect(s).toEqual({ sys: 0, user: 5, role: 257 });
    expect(coverage(s, tree[0], offered)).toBe('all');
    // A point beyond the offer that the role already had is kept, not silently removed.
    expect(setSubtree({ sys: null, user: 512, role: null }, tree[0].children[0], true, offered).user).toBe(517);
    expect(setSubtree(s, tree[0], false, offered)).toEqual({ sys: null, user: null, role: null });
  });

  it('a parent is half-checked when only some of its children or points are granted', () => {
    expect(coverage(grantState(tree, []), tree[0], offered)).toBe('none');
    expect(coverage({ sys: null, user: 1, role: null }, tree[0], offered)).toBe('some');
    expect(coverage({ sys: 0, user: 5, role: 1 }, tree[0], offered)).toBe('some');
    expect(coverage({ sys: 0, user: 5, role: 257 }, tree[0], offered)).toBe('all');
    // A leaf: all of its offered points, some, or hidden.
    expect(coverage({ user: 4 }, tree[0].children[0], offered)).toBe('some');
    expect(coverage({ user: 0 }, tree[0].children[0], offered)).toBe('some');
    expect(coverage({ user: 5 }, tree[0].children[0], offered)).toBe('all');
  });

  it('sends one grant per visible menu, bits 0 included, in tree order', () => {
    const s = { sys: null, user: 1, role: 0 };
    expect(grantsPayload(tree, s)).toEqual([
      { menuId: 'user', bits: 1 },
      { menuId: 'role', bits: 0 },
    ]);
  });
});
