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

  it('server errors show in the interface language: Chinese as the server wrote it, English by code', async () => {
    const { i18n, serverMessage } = await import('./index');
    const err = { status: 409, code: 'CONFLICT', message: '用户名「li」已存在' };
    i18n.global.locale.value = 'zh-CN';
    expect(serverMessage(err)).toBe('用户名「li」已存在');
    expect(serverMessage({ status: 502, code: 'HTTP_502', message: '<html>Bad Gateway' })).toBe(
      '请求失败（502），请稍后再试',
    );
    i18n.global.locale.value = 'en';
    expect(serverMessage(err)).toMatch(/^This conflicts with an existing record/);
    expect(serverMessage({ status: 502, code: 'HTTP_502', message: 'x' })).toBe(
      'The request failed (502). Try again later.',
    );
  });

  it('audit actions, targets and fields have labels in both languages', async () => {
    const { i18n, auditLabel } = await import('./index');
    i18n.global.locale.value = 'zh-CN';
    expect(auditLabel('actions', 'user.update')).toBe('编辑用户');
    expect(auditLabel('fields', 'nickname')).toBe('昵称');
    expect(auditLabel('actions', 'future.thing')).toBe('future.thing');
    i18n.global.locale.value = 'en';
    expect(auditLabel('actions', 'role.set-grants')).toBe('Change grants');
  });
});
