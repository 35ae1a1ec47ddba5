import { describe, expect, it } from 'vitest';
import {
  POINT_NAMES as SERVER_POINTS,
  pointNames as serverPointNames,
} from '../../server/src/admin/permissions/points.js';
import { AUDIT_ACTIONS } from '../../server/src/admin/audit/actions.js';
import { signedOutText } from './signed-out';
import { TEXTS, nameOf, pointNames } from './texts';
import { isUnreachable } from './connection';
import { ApiError, SessionEndedError } from '@tianji/client';

describe('the texts both web apps show for the server’s codes', () => {
  it('name each permission point as the server does (ADD_CHILD is 新增下级 everywhere)', () => {
    expect(TEXTS.zh.points.ADD_CHILD).toBe('新增下级');
    for (const [point, names] of Object.entries(SERVER_POINTS)) {
      expect(TEXTS.zh.points[point as keyof typeof SERVER_POINTS]).toBe(names.zh);
      expect(TEXTS.en.points[point as keyof typeof SERVER_POINTS]).toBe(names.en);
    }
  });

  it('name a grant’s points as the server joins them (7 is 查询、新增、编辑)', () => {
    expect(pointNames(7, 'zh')).toBe('查询、新增、编辑');
    expect(pointNames(7, 'en')).toBe('Search, Add, Edit');
    for (const bits of [0, 1, 32, 513, 1023]) expect(pointNames(bits, 'zh')).toBe(serverPointNames(bits));
  });

  it('translate every audit action the server records, two-step sign-in included', () => {
    expect(Object.keys(TEXTS.zh.auditActions).sort()).toEqual(Object.keys(AUDIT_ACTIONS).sort());
    expect(TEXTS.zh.auditActions['auth.totp-enable']).toBe('开启两步验证');
    expect(nameOf(TEXTS.zh.auditActions, 'future.thing')).toBe('future.thing');
  });

  it('say why a sign-in failed in Chinese (WRONG_TOTP → 两步验证码错误)', () => {
    expect(TEXTS.zh.loginReasons.WRONG_TOTP).toBe('两步验证码错误');
    expect(TEXTS.en.menuKinds.embed).toBe('Embedded page');
  });
});

describe('signedOutText', () => {
  it('says 已退出登录 after one’s own sign-out, not that the session was ended elsewhere', () => {
    expect(signedOutText('logout', undefined)).toEqual({ text: '已退出登录', level: 'info' });
    expect(signedOutText('logout', undefined, 'en')?.text).toBe('You have signed out.');
  });

  it('gives the server’s own reason in Chinese and the code’s meaning in English', () => {
    const detail = { code: 'FORCED_LOGOUT', message: '你已被管理员强制下线，请重新登录' };
    expect(signedOutText('session-ended', detail)).toEqual({ text: detail.message, level: 'warning' });
    expect(signedOutText('session-ended', detail, 'en')?.text).toBe('An administrator signed you out.');
    expect(signedOutText('no-session', undefined)).toBeUndefined();
  });

  it('an operator ending this one device says so, not the generic sentence (generated from the server)', () => {
    const detail = { code: 'SESSION_REVOKED', message: '此设备已被管理员下线，请重新登录' };
    expect(signedOutText('session-ended', detail)?.text).toBe('此设备已被管理员下线，请重新登录');
    expect(signedOutText('session-ended', detail, 'en')?.text).toBe(
      'An administrator signed this device out. Please sign in again.',
    );
    expect(TEXTS.zh.errors.SESSION_REVOKED).toBe(detail.message);
  });
});

describe('isUnreachable', () => {
  it('tells "no answer" (network down, a proxy’s 502) from "the server said no"', () => {
    expect(isUnreachable(new TypeError('Failed to fetch'))).toBe(true);
    expect(isUnreachable(new ApiError(502, 'HTTP_502', 'Bad Gateway'))).toBe(true);
    expect(isUnreachable(new ApiError(503, 'SERVICE_UNAVAILABLE', '服务暂时不可用'))).toBe(false);
    expect(isUnreachable(new ApiError(401, 'SESSION_ENDED', '会话已结束'))).toBe(false);
    expect(isUnreachable(new SessionEndedError('refresh-failed'))).toBe(false);
  });
});
