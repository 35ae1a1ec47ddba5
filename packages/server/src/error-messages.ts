import type { ErrorCode } from './errors.js';
import {
  API_KEY_INVALID_MESSAGE,
  DEVICE_POLL_MESSAGES,
  PENDING_MESSAGES,
  REAUTH_MESSAGE,
  SIGNED_OUT_MESSAGES,
} from './errors.js';

/**
 * Each error code's general meaning in Chinese and English, for clients (generated into `@tianji/client` as
 * ERROR_MESSAGES). A response's own `message` is more precise (it names the parameter or the record); a client shows
 * this text when it needs the code's meaning in another language, or has no message. The sign-out and pending texts
 * are the very messages the server answers with.
 */
export const ERROR_MESSAGES: Record<ErrorCode, { zh: string; en: string }> = {
  VALIDATION_ERROR: { zh: '输入有误，请检查后重试', en: 'Some input is not valid. Check it and try again.' },
  AUTHORIZATION_PENDING: {
    zh: DEVICE_POLL_MESSAGES.AUTHORIZATION_PENDING,
    en: 'Waiting for the sign-in to be approved in a browser…',
  },
  SLOW_DOWN: { zh: DEVICE_POLL_MESSAGES.SLOW_DOWN, en: 'Polling too often: wait longer between requests.' },
  ACCESS_DENIED: { zh: DEVICE_POLL_MESSAGES.ACCESS_DENIED, en: 'The sign-in request was refused.' },
  EXPIRED_TOKEN: {
    zh: DEVICE_POLL_MESSAGES.EXPIRED_TOKEN,
    en: 'The code has expired: run tianji login --web again.',
  },
  UNAUTHORIZED: { zh: '请先登录', en: 'Please sign in first.' },
  TOKEN_EXPIRED: { zh: SIGNED_OUT_MESSAGES.TOKEN_EXPIRED, en: 'Your sign-in has expired. Please sign in again.' },
  SESSION_ENDED: {
    zh: SIGNED_OUT_MESSAGES.SESSION_ENDED,
    en: 'This session was ended (signed out elsewhere or by an administrator).',
  },
  SESSION_REVOKED: {
    zh: SIGNED_OUT_MESSAGES.SESSION_REVOKED,
    en: 'An administrator signed this device out. Please sign in again.',
  },
  FORCED_LOGOUT: { zh: SIGNED_OUT_MESSAGES.FORCED_LOGOUT, en: 'An administrator signed you out.' },
  ACCOUNT_DISABLED: { zh: SIGNED_OUT_MESSAGES.ACCOUNT_DISABLED, en: 'Your account has been disabled.' },
  PASSWORD_CHANGED: {
    zh: SIGNED_OUT_MESSAGES.PASSWORD_CHANGED,
    en: 'Your password was changed. Sign in with the new one.',
  },
  REFRESH_REUSED: {
    zh: SIGNED_OUT_MESSAGES.REFRESH_REUSED,
    en: 'Your sign-in was used twice; for safety it has been ended.',
  },
  REFRESH_SUPERSEDED: {
    zh: SIGNED_OUT_MESSAGES.REFRESH_SUPERSEDED,
    en: 'Your sign-in was refreshed elsewhere. Please sign in again.',
  },
  API_KEY_INVALID: {
    zh: API_KEY_INVALID_MESSAGE,
    en: 'The API key is not valid (wrong, revoked or expired).',
  },
  API_KEY_REQUIRED: {
    zh: '该接口需要接口密钥，请在请求头 X-API-Key 中提供',
    en: 'This endpoint needs an API key: send it in the X-API-Key header.',
  },
  FORBIDDEN: { zh: '无权限', en: 'No permission.' },
  API_KEY_NOT_ALLOWED: {
    zh: '该接口密钥不允许这样调用（接口分组、来源或地址不在允许范围内）',
    en: 'This API key may not make this call (endpoint group, origin or address not allowed).',
  },
  PRIVILEGE_ESCALATION: {
    zh: '不能授予或操作超出你自己权限的内容',
    en: 'You cannot grant or act on more than you hold yourself.',
  },
  PASSWORD_CHANGE_REQUIRED: {
    zh: PENDING_MESSAGES.PASSWORD_CHANGE_REQUIRED,
    en: 'Please change your password before you go on.',
  },
  TOTP_SETUP_REQUIRED: {
    zh: PENDING_MESSAGES.TOTP_SETUP_REQUIRED,
    en: 'Your role requires two-step sign-in: turn it on in your profile first.',
  },
  REAUTH_REQUIRED: {
    zh: REAUTH_MESSAGE,
    en: 'Confirm it is you first: enter your current password (or a two-step code); it counts for 10 minutes.',
  },
  NOT_FOUND: { zh: '记录不存在或已被删除', en: 'The record does not exist or was deleted.' },
  CONFLICT: {
    zh: '与已有记录冲突（例如编码或用户名重复）',
    en: 'This conflicts with an existing record (e.g. a duplicate code or username).',
  },
  SUPER_ADMIN_PROTECTED: {
    zh: '超级管理员受保护，不能这样操作',
    en: 'The super administrator is protected from this.',
  },
  PAYLOAD_TOO_LARGE: { zh: '提交的内容太大', en: 'What you sent is too large.' },
  TOO_MANY_REQUESTS: { zh: '请求太频繁，请稍后再试', en: 'Too many requests. Try again later.' },
  INTERNAL_ERROR: { zh: '服务器出错了，请稍后再试', en: 'Something went wrong on the server. Try again later.' },
  SERVICE_UNAVAILABLE: { zh: '服务暂时不可用，请稍后再试', en: 'The service is unavailable for now. Try again later.' },
};
