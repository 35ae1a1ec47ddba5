import { describe, expect, it } from 'vitest';
import { grantState, grantsPayload, hasPoint, setAllPoints, setPoint, setVisible } from './grants';

const tree = [
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

  it('hiding a menu drops its points; all / none per menu', () => {
    let s = setAllPoints(grantState(tree, []), 'user', true);
    expect(s.user).toBe(1023);
    s = setAllPoints(s, 'user', false);
    expect(s.user).toBe(0);
    s = setVisible(s, 'user', false);
    expect(s.user).toBeNull();
    expect(setVisible(s, 'role', true).role).toBe(0);
  });

  it('sends one grant per visible menu, bits 0 included, in tree order', () => {
    const s = { sys: null, user: 1, role: 0 };
    expect(grantsPayload(tree, s)).toEqual([
      { menuId: 'user', bits: 1 },
      { menuId: 'role', bits: 0 },
    ]);
  });
});
