import { describe, expect, it } from 'vitest';
import { contentDisposition, exportFileName, exportTime, yesNo, zhName } from './export-format.js';

describe('export cells and names', () => {
  it('times read as Beijing time to the second, as RuoYi exports them', () => {
    expect(exportTime('2026-12-01T06:32:05.123Z')).toBe('2026-12-01 14:32:05');
    expect(exportTime('2026-11-30T16:00:00Z')).toBe('2026-12-01 00:00:00');
    expect(exportTime(null)).toBe('');
  });

  it('booleans read 是/否 and codes their Chinese names (an unknown code stays as it is)', () => {
    expect([yesNo(true), yesNo(false)]).toEqual(['是', '否']);
    const names = { WRONG_TOTP: { zh: '两步验证码错误', en: 'Wrong two-step code' } };
    expect(zhName(names, 'WRONG_TOTP')).toBe('两步验证码错误');
    expect(zhName(names, 'NEWER_CODE')).toBe('NEWER_CODE');
    expect(zhName(names, null)).toBe('');
  });

  it('the file is named for the list and the day in Beijing, in UTF-8 with an ASCII fallback', () => {
    // 23:30 UTC on 30 November is already 1 December in Beijing.
    const now = new Date('2026-11-30T23:30:00Z');
    expect(exportFileName('登录日志', 'csv', now)).toBe('登录日志-2026-12-01.csv');
    const header = contentDisposition({ title: '登录日志', ascii: 'login-logs' }, 'csv', now);
    expect(header).toBe(
      `attachment; filename="login-logs-2026-12-01.csv"; filename*=UTF-8''${encodeURIComponent('登录日志-2026-12-01.csv')}`,
    );
  });
});
