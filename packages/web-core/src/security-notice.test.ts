import { describe, expect, it } from 'vitest';
import { nextTick, ref, shallowRef } from 'vue';
import { securityNoticeTexts, showSecurityNoticeOnce } from './security-notice';

describe('the sign-in’s security notice', () => {
  it('is shown once, when the app is ready, and taken so a later change does not show it again', async () => {
    const notice = shallowRef<string | null>(null);
    const ready = ref(false);
    const shown: string[] = [];
    showSecurityNoticeOnce(
      notice,
      () => ready.value,
      (text) => shown.push(text),
    );

    notice.value = '自上次登录以来，你的账号有 2 次两步验证码输入错误。';
    await nextTick();
    expect(shown).toEqual([]); // still on the sign-in page
    ready.value = true;
    await nextTick();
    expect(shown).toEqual(['自上次登录以来，你的账号有 2 次两步验证码输入错误。']);
    expect(notice.value).toBeNull();
    ready.value = false;
    await nextTick();
    ready.value = true;
    await nextTick();
    expect(shown).toHaveLength(1);
  });

  it('frames the server’s sentence with a way to the user’s sessions, in both languages', () => {
    expect(securityNoticeTexts('zh')).toEqual({ title: '安全提醒', sessions: '查看我的登录设备', dismiss: '知道了' });
    expect(securityNoticeTexts('en').sessions).toMatch(/devices/);
  });
});
