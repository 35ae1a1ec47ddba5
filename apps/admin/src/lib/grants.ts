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

/** A menu of the tree, typed as the caller's own rows (so `offered` reads their fields). */
interface Node<N> {
  id: string;
  children: N[];
}

const subtree = <N extends Node<N>>(n: N): N[] => [n, ...n.children.flatMap((c) => subtree(c))];

/**
 * How much of a menu and its submenus the role holds: `all` when each is visible with every point it offers, `none`
 * when each is hidden, `some` otherwise (the parent's half-checked box).
 */
export function coverage<N extends Node<N>>(
  state: GrantState,
  node: N,
  offered: (n: N) => number,
): 'all' | 'some' | 'none' {
  let full = 0;
  let hidden = 0;
  const nodes = subtree(node);
  for (const n of nodes) {
    const b = state[n.id];
    if (b === null || b === undefined) hidden++;
    else if ((b & offered(n)) === offered(n)) full++;
  }
  return full === nodes.length ? 'all' : hidden === nodes.length ? 'none' : 'some';
}

/**
 * Everything (or nothing) for a menu and its submenus: on, each is visible with every point it offers (points it does
 * not offer are kept, so nothing is taken silently); off, each is hidden.
 */
export function setSubtree<N extends Node<N>>(
  state: GrantState,
  node: N,
  on: boolean,
  offered: (n: N) => number,
): GrantState {
  const next = { ...state };
  for (const n of subtree(node)) next[n.id] = on ? (state[n.id] ?? 0) | offered(n) : null;
  return next;
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
