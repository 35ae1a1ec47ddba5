import { describe, expect, it } from 'vitest';
import { ApiError } from '@tianji/client';
import { passkeyFailure, passkeyKind } from './passkeys';

describe('passkeys in words', () => {
  it('names where a passkey lives: the known authenticator, else what its transports say', () => {
    expect(passkeyKind({ provider: 'iCloud 钥匙串', synced: true, transports: ['internal', 'hybrid'] })).toBe(
      'iCloud 钥匙串',
    );
    expect(passkeyKind({ provider: null, synced: true, transports: ['internal'] })).toBe('已同步的通行密钥');
    expect(passkeyKind({ provider: null, synced: false, transports: ['internal'] })).toBe('本设备');
    expect(passkeyKind({ provider: null, synced: false, transports: ['hybrid'] })).toBe('手机');
    expect(passkeyKind({ provider: null, synced: false, transports: ['usb', 'nfc'] })).toBe('安全密钥');
    expect(passkeyKind({ provider: null, synced: false, transports: [] })).toBe('通行密钥');
    expect(passkeyKind({ provider: null, synced: false, transports: ['usb'] }, 'en')).toBe('Security key');
  });

  it('says why a passkey step failed, in Chinese, never in the browser’s English', () => {
    const named = (name: string) =>
      Object.assign(new Error('The operation either timed out or was not allowed.'), { name });
    expect(passkeyFailure(named('NotAllowedError'))).toBe('已取消，或等待超时：没有使用通行密钥');
    expect(passkeyFailure(named('InvalidStateError'))).toBe('这台设备上已经有此账号的通行密钥');
    expect(passkeyFailure(named('SecurityError'))).toContain('localhost');
    const wrapped = Object.assign(new Error('x'), { name: 'WebAuthnError', cause: { name: 'NotAllowedError' } });
    expect(passkeyFailure(wrapped)).toBe('已取消，或等待超时：没有使用通行密钥');
    const refused = new ApiError(401, 'UNAUTHORIZED', '通行密钥验证未通过，请重试 (unknown credential)');
    expect(passkeyFailure(refused)).toBe('通行密钥验证未通过，请重试');
    expect(passkeyFailure(new Error('boom'))).toBe('通行密钥验证未通过，请重试');
  });
});
