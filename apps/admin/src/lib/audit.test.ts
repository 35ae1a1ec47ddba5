import { describe, expect, it } from 'vitest';
import { auditChanges, auditExtra, auditTargetName, showValue } from './audit';

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
    expect(auditTargetName(detail)).toBe('li');
  });

  it('roles and grants set as a whole show the old and the new set', () => {
    expect(auditChanges('user.set-roles', { username: 'li', from: ['a'], to: ['a', 'b'] })).toEqual([
      { field: 'roles', before: ['a'], after: ['a', 'b'] },
    ]);
    expect(auditChanges('role.set-grants', { code: 'ops', from: [], to: [{ menu: 'system', bits: 1 }] })[0].field).toBe(
      'grants',
    );
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
    expect(auditTargetName({ count: 3 })).toBe('');
  });

  it('shows values compactly', () => {
    expect(showValue(undefined)).toBe('—');
    expect(showValue('abc')).toBe('abc');
    expect(showValue(['a', 'b'])).toBe('["a","b"]');
  });
});
