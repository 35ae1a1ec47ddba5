import { describe, expect, it } from 'vitest';
import { MENU_CATALOGUE, PERMISSION_POINTS } from '@tianji/client';
import { MENU_TREE } from '../../../../packages/server/src/admin/seed.js';
import { ICONS } from './icons';

type Node = { code: string; icon?: string; children?: Node[] };
const flat = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...flat(n.children ?? [])]);

describe('icons', () => {
  it('every built-in menu and every permission point has its icon bundled (none falls back to a circle)', () => {
    const named = [
      ...MENU_CATALOGUE.map((m) => `menu ${m.code}: ${m.icon}`),
      ...flat(MENU_TREE as Node[]).map((m) => `menu ${m.code}: ${m.icon}`),
      ...PERMISSION_POINTS.map((p) => `point ${p.value}: ${p.icon}`),
    ];
    const missing = named.filter((line) => !Object.hasOwn(ICONS, line.split(': ')[1]));
    expect(missing).toEqual([]);
    expect(named.length).toBeGreaterThan(30);
  });
});
