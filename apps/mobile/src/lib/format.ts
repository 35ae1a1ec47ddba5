import zhCN from '@admin/i18n/zh-CN';

export { beijingTime } from '@admin/lib/time';

/** The desktop app's Chinese texts that name server codes: sign-out reasons, login-log events, client kinds. */
export const TEXT = {
  signedOut: zhCN.login.reason as Record<string, string>,
  loginEvents: zhCN.loginLog.events as Record<string, string>,
  loginReasons: zhCN.loginLog.reasons as Record<string, string>,
  fields: zhCN.fields as Record<string, string>,
  clientKinds: zhCN.sessions.kind as Record<string, string>,
};

/** What to tell a user whose session the server ended: the known reason in Chinese, else the server's message. */
export const signedOutText = (code: string, message: string) =>
  Object.hasOwn(TEXT.signedOut, code) ? TEXT.signedOut[code] : message;

export const fieldLabel = (name: string) => (Object.hasOwn(TEXT.fields, name) ? TEXT.fields[name] : name);
