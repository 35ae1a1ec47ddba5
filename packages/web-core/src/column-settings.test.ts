import { describe, expect, it } from 'vitest';
import { columnSettings, columnStorageKey, describeColumns } from './column-settings';

function memoryStorage() {
  const m = new Map<string, string>();
  return {
    m,
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
  };
}

const COLUMNS = describeColumns(
  [
    { label: '用户名', prop: 'username' },
    { label: '昵称', prop: 'nickname' },
    { label: '创建时间' },
    { label: '操作' },
  ],
  '操作',
);

describe('column settings', () => {
  it('the first column and the 操作 column may not be hidden; the others are named by prop, else label', () => {
    expect(COLUMNS.map((c) => [c.key, c.locked])).toEqual([
      ['username', true],
      ['nickname', false],
      ['创建时间', false],
      ['操作', true],
    ]);
    expect(describeColumns([{ label: 'a' }, { label: 'b', fixed: 'right' }], '操作')[1].locked).toBe(true);
  });

  it('a hidden column stays hidden for the next visit of the same user and list, not for another user', () => {
    const storage = memoryStorage();
    const key = columnStorageKey('users', 'u1');
    const first = columnSettings(key, storage);
    first.set(COLUMNS[1], false);
    const again = columnSettings(key, storage);
    expect(COLUMNS.filter(again.shown).map((c) => c.key)).toEqual(['username', '创建时间', '操作']);
    const other = columnSettings(columnStorageKey('users', 'u2'), storage);
    expect(COLUMNS.every(other.shown)).toBe(true);
  });

  it('locked columns ignore hiding, even when the storage says so', () => {
    const storage = memoryStorage();
    storage.setItem('k', JSON.stringify(['username', '操作']));
    const s = columnSettings('k', storage);
    s.set(COLUMNS[3], false);
    expect(COLUMNS.every(s.shown)).toBe(true);
  });

  it('重置 shows every column and forgets the setting; a damaged entry reads as nothing hidden', () => {
    const storage = memoryStorage();
    const s = columnSettings('k', storage);
    s.set(COLUMNS[1], false);
    s.set(COLUMNS[2], false);
    s.reset();
    expect(COLUMNS.every(s.shown)).toBe(true);
    expect(storage.m.has('k')).toBe(false);
    storage.setItem('k', '{not json');
    expect(COLUMNS.every(columnSettings('k', storage).shown)).toBe(true);
  });
});
