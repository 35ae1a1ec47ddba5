import { describe, expect, it } from 'vitest';
import { pointNames } from '@tianji/web-core';
import { auditChanges, auditExtra, showValue, type GrantNames } from './audit';

describe('audit rows made readable', () => {
  it('an update lists each changed field with its value before and after', () => {
    const detail = {
      username: 'li',
      changes: { nickname: { from: '小李', to: '老李' }, status: { from: 'enabled', to: 'disabled' } },
    };
    expect(auditChanges('user.update', detail)).toEqual([
      { field: 'nickname', before: '小李', after: '老李' },
      { field: 'status', before: 'enabled', after: 'disabled' },
    ]);
  });

  it('roles and grants set as a whole show the old and the new set', () => {
    expect(auditChanges('user.set-roles', { username: 'li', from: ['a'], to: ['a', 'b'] })).toEqual([
      { field: 'roles', before: ['a'], after: ['a', 'b'] },
    ]);
    expect(auditChanges('role.set-grants', { code: 'ops', from: [], to: [{ menu: 'system', bits: 1 }] })[0].field).toBe(
      'grants',
    );
  });

  it('a grant change reads menu by menu in point names, 「古诗词：查询、新增、编辑」, not {"bits":7}', () => {
    const names: GrantNames = { menu: (g) => g.name ?? g.menu, points: (bits) => pointNames(bits, 'zh') };
    const detail = {
      code: 'editors',
      from: [
        { menu: 'content:poems', name: '古诗词', bits: 1 },
        { menu: 'system:user', name: '用户管理', bits: 1 },
        { menu: 'system:role', name: '角色管理', bits: 1 },
      ],
      to: [
        { menu: 'content:poems', name: '古诗词', bits: 7 },
        { menu: 'system:user', name: '用户管理', bits: 1 },
        { menu: 'content:riddles', bits: 512 },
      ],
    };
    expect(auditChanges('role.set-grants', detail, names)).toEqual([
      { field: 'grants', label: '古诗词', before: '查询', after: '查询、新增、编辑' },
      { field: 'grants', label: 'content:riddles', before: '', after: '导出' },
      { field: 'grants', label: '角色管理', before: '查询', after: '' },
    ]);
  });

  it('a creation shows the new record as after, never a password', () => {
    expect(auditChanges('role.create', { code: 'ops', name: '运维', password: 'x' })).toEqual([
      { field: 'code', before: undefined, after: 'ops' },
      { field: 'name', before: undefined, after: '运维' },
    ]);
  });

  it('rows with nothing to compare give no changes; the rest of the detail stays visible', () => {
    expect(auditChanges('user.export', { count: 3, filter: {} })).toEqual([]);
    expect(auditChanges('content.create', null)).toEqual([]);
    expect(auditExtra({ username: 'li', sessions: 2 })).toEqual({ sessions: 2 });
  });

  it('shows values compactly', () => {
    expect(showValue(undefined)).toBe('—');
    expect(showValue('abc')).toBe('abc');
    expect(showValue(['a', 'b'])).toBe('["a","b"]');
  });
});
