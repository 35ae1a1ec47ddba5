import type { SignOutDetail, SignOutReason } from '@tianji/client';
import { TEXTS, type Lang } from './texts';

/**
 * What to tell the user whose session just ended, and how loudly: the server's reason when it gave one (forced out,
 * account disabled, password changed, ...), 「已退出登录」 after one's own sign-out, nothing when there was no session.
 */
export function signedOutText(
  reason: SignOutReason | string,
  detail: SignOutDetail | undefined,
  lang: Lang = 'zh',
): { text: string; level: 'info' | 'warning' } | undefined {
  const t = TEXTS[lang];
  if (detail) {
    // The server's own words in Chinese; its code's meaning in English.
    const text = lang === 'zh' || !Object.hasOwn(t.errors, detail.code) ? detail.message : t.errors[detail.code];
    return { text, level: 'warning' };
  }
  if (reason === 'logout' || reason === 'other-tab') return { text: t.signedOut[reason], level: 'info' };
  if (reason === 'refresh-failed') return { text: t.signedOut[reason], level: 'warning' };
  return undefined;
}
