import { describe, expect, it } from 'vitest';
import { ApiError } from '@tianji/client';
import { fieldErrorOf, useFieldErrors } from './field-errors';

const invalid = (message: string) => new ApiError(400, 'VALIDATION_ERROR', message);

describe('server validation errors under their fields', () => {
  it('reads the field and the reason from the server’s one wording', () => {
    expect(fieldErrorOf(invalid('参数 newPassword 无效：密码长度应至少为 8 个字符（当前 3 个）'))).toEqual({
      field: 'newPassword',
      reason: '密码长度应至少为 8 个字符（当前 3 个）',
    });
    // A taken role code is the code field's error, not a toast.
    expect(
      fieldErrorOf(new ApiError(409, 'CONFLICT', '参数 code 无效：角色编码不能重复，已被角色「审计员」使用')),
    ).toEqual({
      field: 'code',
      reason: '角色编码不能重复，已被角色「审计员」使用',
    });
    expect(fieldErrorOf(new ApiError(409, 'CONFLICT', 'the value is already taken'))).toBeUndefined();
    // A value already taken names its field too (a username, a role name or code).
    expect(fieldErrorOf(new ApiError(409, 'CONFLICT', '参数 username 无效：用户名已被使用'))).toEqual({
      field: 'username',
      reason: '用户名已被使用',
    });
    expect(fieldErrorOf(new ApiError(403, 'PRIVILEGE_ESCALATION', '参数 x 无效：y'))).toBeUndefined();
  });

  it('names the field by its label, and leaves fields the form does not have to the toast', () => {
    const fe = useFieldErrors(() => ({ newPassword: '新密码', holidays: '假期' }));
    expect(fe.show(invalid('参数 newPassword 无效：密码强度不足（评分 1，至少需要 3，满分 4）'))).toBe(true);
    expect(fe.errors.newPassword).toBe('新密码无效：密码强度不足（评分 1，至少需要 3，满分 4）');
    expect(fe.show(invalid('参数 holidays.0.name 无效：长度应为 1 至 20 个字符'))).toBe(true);
    expect(fe.errors.holidays).toBe('假期（第 1 项 · name）无效：长度应为 1 至 20 个字符');
    expect(fe.show(invalid('参数 code 无效：应为 6 位数字'))).toBe(false);
    fe.clear();
    expect(fe.errors).toEqual({});
  });
});
