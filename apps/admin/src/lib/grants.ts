import { ALL_ONES, PERMISSION_POINTS, toMask } from '@tianji/client';

/**
 * The grant editor's state: for each menu id, its bits, or null when the role holds no grant on it (the menu is
 * hidden). 0 is a real grant: the menu shows, every action in it stays hidden.
 */
export type GrantState = Record<string, number | null>;

export interface TreeLike {
  id: string;
  children: TreeLike[];
}

const ALL_POINTS = PERMISSION_POINTS.reduce((m, p) => m | p.bits, 0);

/** From a role's grants (masks as the server sends them) to editor state over every menu of the tree. */
export function grantState(tree: TreeLike[], grants: Array<{ menuId: string; bits: number | string }>): GrantState {
  const state: GrantState = {};
  const walk = (nodes: TreeLike[]): void => {
    for (const n of nodes) {
      state[n.id] = null;
      walk(n.children);
    }
  };
  walk(tree);
  for (const g of grants) {
    const m = toMask(g.bits);
    state[g.menuId] = m === ALL_ONES ? ALL_POINTS : Number(m & BigInt(ALL_POINTS));
  }
  return state;
}

/** Ticks or clears one point; ticking a point makes the menu visible too. */
export function setPoint(state: GrantState, menuId: string, bit: number, on: boolean): GrantState {
  const cur = state[menuId] ?? 0;
  const next = on ? cur | bit : cur & ~bit;
  return { ...state, [menuId]: on || state[menuId] !== null ? next : null };
}

/** Shows or hides a menu for the role; hiding drops its points. */
export function setVisible(state: GrantState, menuId: string, on: boolean): GrantState {
  return { ...state, [menuId]: on ? (state[menuId] ?? 0) : null };
}

/** Every point on (or off) for one menu. */
export function setAllPoints(state: GrantState, menuId: string, on: boolean): GrantState {
  return { ...state, [menuId]: on ? ALL_POINTS : state[menuId] === null ? null : 0 };
}

export const hasPoint = (state: GrantState, menuId: string, bit: number) => ((state[menuId] ?? 0) & bit) !== 0;

/** The body of PUT /api/roles/{id}/menus: one grant per visible menu, in tree order. */
export function grantsPayload(tree: TreeLike[], state: GrantState): Array<{ menuId: string; bits: number }> {
  const out: Array<{ menuId: string; bits: number }> = [];
  const walk = (nodes: TreeLike[]) =>
    nodes.forEach((n) => {
      const b = state[n.id];
      if (b !== null && b !== undefined) out.push({ menuId: n.id, bits: b });
      walk(n.children);
    });
  walk(tree);
  return out;
}
