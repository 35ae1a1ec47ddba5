import { describe, expect, it } from 'vitest';
import { type SearchEntry, searchMenus } from './menu-search';

const entry = (name: string, trail = ['系统管理'], spoken = name): SearchEntry => ({
  path: `/${spoken}`,
  name,
  spoken,
  trail,
});
const menus = [entry('角色管理'), entry('用户管理'), entry('在线用户'), entry('API 密钥'), entry('系统监控', [])];
const names = (q: string, list = menus) => searchMenus(list, q).map((h) => h.entry.name);

describe('menu search', () => {
  it('finds 用户管理 by its name, its full pinyin and its initials', () => {
    expect(names('用户')).toEqual(['用户管理', '在线用户']);
    expect(names('yonghu')).toEqual(['用户管理', '在线用户']);
    expect(names('yh')).toEqual(['用户管理', '在线用户']);
    expect(names('yhgl')).toEqual(['用户管理']);
    expect(names('yonghuguanli')).toEqual(['用户管理']);
    expect(names('YH')).toEqual(['用户管理', '在线用户']);
  });

  it('matches consecutive characters only, and says which ones matched', () => {
    expect(names('yg')).toEqual([]);
    expect(searchMenus(menus, 'hgl')[0]).toEqual({ entry: menus[1], hits: [1, 2, 3] });
    expect(searchMenus(menus, '管理').map((h) => h.hits)).toEqual([
      [2, 3],
      [2, 3],
    ]);
  });

  it('matches letters in a name before pinyin, any case; nothing for an empty query', () => {
    expect(names('api')).toEqual(['API 密钥']);
    expect(names('miyao')).toEqual(['API 密钥']);
    expect(names('  ')).toEqual([]);
  });

  it('in English, finds by the English name and by the Chinese pinyin (nothing highlighted for the pinyin)', () => {
    const en = [entry('Users', ['System'], '用户管理'), entry('Roles', ['System'], '角色管理')];
    expect(names('user', en)).toEqual(['Users']);
    expect(searchMenus(en, 'js')).toEqual([{ entry: en[1], hits: [] }]);
  });
});
