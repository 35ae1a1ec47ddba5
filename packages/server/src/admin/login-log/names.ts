import type { LoginEvent } from './schemas.js';

/** Each login-log event's name in Chinese and English (generated into `@tianji/client` for the clients). */
export const LOGIN_EVENT_NAMES: Record<LoginEvent, { zh: string; en: string }> = {
  login: { zh: '登录', en: 'Sign-in' },
  logout: { zh: '退出', en: 'Sign-out' },
  'session-ended': { zh: '会话结束', en: 'Session ended' },
  'forced-logout': { zh: '强制下线', en: 'Forced sign-out' },
  'refresh-reused': { zh: '令牌重放', en: 'Token replay' },
};

/** A login-log row's result. */
export const LOGIN_RESULT_NAMES = {
  success: { zh: '成功', en: 'Success' },
  failure: { zh: '失败', en: 'Failure' },
} as const;

/**
 * Each reason a login-log row can carry: why a sign-in failed (the credential failures of admin/auth/service.ts and
 * THROTTLED), how a successful one was made when it is worth noting (RECOVERY_CODE, PASSKEY, DEVICE), or the code a session ended with (the sign-out codes of errors.ts, and LOGOUT).
 */
export const LOGIN_REASON_NAMES = {
  UNKNOWN_USER: { zh: '用户不存在', en: 'Unknown user' },
  WRONG_PASSWORD: { zh: '密码错误', en: 'Wrong password' },
  WRONG_TOTP: { zh: '两步验证码错误', en: 'Wrong two-step code' },
  RECOVERY_CODE: { zh: '使用恢复码', en: 'With a recovery code' },
  PASSKEY: { zh: '通行密钥', en: 'With a passkey' },
  DEVICE: { zh: '浏览器授权', en: 'Approved in a browser' },
  PASSKEY_INVALID: { zh: '通行密钥验证未通过', en: 'Passkey not verified' },
  PASSKEY_UNKNOWN: { zh: '通行密钥未登记', en: 'Unknown passkey' },
  ACCOUNT_DISABLED: { zh: '账号已停用', en: 'Account disabled' },
  ACCOUNT_CHANGED: { zh: '登录期间账号安全设置已变化', en: 'Account changed during sign-in' },
  TOTP_LOCKED: { zh: '两步验证码错误过多，已暂时锁定', en: 'Two-step sign-in locked after wrong codes' },
  THROTTLED: { zh: '尝试过多，已限流', en: 'Too many attempts' },
  ERROR: { zh: '服务器出错', en: 'Server error' },
  TOKEN_EXPIRED: { zh: '登录已过期', en: 'Sign-in expired' },
  SESSION_ENDED: { zh: '会话被结束', en: 'Session ended' },
  SESSION_REVOKED: { zh: '此设备被管理员下线', en: 'Device signed out by an administrator' },
  FORCED_LOGOUT: { zh: '被强制下线', en: 'Forced out' },
  PASSWORD_CHANGED: { zh: '密码已修改', en: 'Password changed' },
  REFRESH_REUSED: { zh: '刷新令牌被重复使用', en: 'Refresh token reused' },
  REFRESH_SUPERSEDED: { zh: '刷新令牌已被替换', en: 'Refresh token superseded' },
  LOGOUT: { zh: '主动退出', en: 'Signed out' },
} as const satisfies Record<string, { zh: string; en: string }>;
