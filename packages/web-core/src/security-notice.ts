import { watch, type Ref } from 'vue';
import type { Lang } from './texts';

/** The notice's frame in both interface languages; its sentence is the server's own (Chinese). */
const SECURITY_NOTICE_TEXTS = {
  zh: { title: '安全提醒', sessions: '查看我的登录设备', dismiss: '知道了' },
  en: { title: 'Security notice', sessions: 'View my signed-in devices', dismiss: 'Got it' },
};
export const securityNoticeTexts = (lang: Lang = 'zh') => SECURITY_NOTICE_TEXTS[lang];

/**
 * Shows the sign-in's `securityNotice` (wrong second-step codes since the last sign-in) once, as soon as `ready` holds
 * (the signed-in shell is up): `show` draws the server's sentence in the app's UI kit with a way to the user's own
 * sessions. The notice is taken when shown, so a later render or navigation does not show it again.
 *
 * @example showSecurityNoticeOnce(securityNotice, () => true, (text) => ElMessageBox.confirm(text, …))
 */
export function showSecurityNoticeOnce(notice: Ref<string | null>, ready: () => boolean, show: (text: string) => void) {
  watch(
    [notice, ready],
    ([text, isReady]) => {
      if (!text || !isReady) return;
      notice.value = null;
      show(text);
    },
    { immediate: true },
  );
}
