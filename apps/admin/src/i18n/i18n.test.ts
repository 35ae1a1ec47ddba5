import { describe, expect, it } from 'vitest';
import en from './en';
import zh from './zh-CN';

const keys = (o: object, prefix = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`]));

describe('translations', () => {
  it('English has every Chinese text (menu names aside, which come from the server in Chinese)', () => {
    const missing = keys(zh).filter((k) => !keys(en).includes(k));
    expect(missing).toEqual([]);
  });

  it('English translates every built-in menu of the server', async () => {
    const { MENU_TREE } = await import('../../../../packages/server/src/admin/seed.js');
    const codes = (nodes: Array<{ code: string; children?: unknown[] }>): string[] => nodes.flatMap((n) => [n.code, ...codes((n.children ?? []) as typeof nodes)]);
    expect(codes(MENU_TREE).filter((c) => !(c in en.menuNames))).toEqual([]);
  });
});
