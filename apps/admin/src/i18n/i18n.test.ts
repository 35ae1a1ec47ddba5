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

  it('English names every built-in menu of the server (from the catalogue)', async () => {
    const { MENU_TREE } = await import('../../../../packages/server/src/admin/seed.js');
    const { i18n, menuName } = await import('./index');
    const nodes = (
      list: Array<{ code: string; name: string; children?: unknown[] }>,
    ): Array<{ code: string; name: string }> => list.flatMap((n) => [n, ...nodes((n.children ?? []) as typeof list)]);
    i18n.global.locale.value = 'en';
    const untranslated = nodes(MENU_TREE).filter((n) => !/^[A-Z][A-Za-z -]+$/.test(menuName(n)));
    expect(untranslated.map((n) => n.code)).toEqual([]);
    expect(menuName({ code: 'content:holidays', name: '节假日安排' })).toBe('Holiday schedules');
  });
});
