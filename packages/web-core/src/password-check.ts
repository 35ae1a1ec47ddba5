import { reactive, watch } from 'vue';
import type { createSession } from '@tianji/client';
import type { Lang } from './texts';

/** The server's answer for a new password (POST /api/auth/password-check): the policy's own verdict and reason. */
export interface PasswordVerdict {
  score: number;
  ok: boolean;
  problem: string;
}

export type StrengthLevel = 'weak' | 'fair' | 'strong';

const LEVELS = {
  zh: { weak: '弱', fair: '一般', strong: '强', label: '密码强度' },
  en: { weak: 'Weak', fair: 'Fair', strong: 'Strong', label: 'Strength' },
};

/**
 * The meter's word for a verdict: a password the policy refuses is 弱 whatever its score (the meter never praises
 * what the submit will refuse); an accepted one is 强 from score 3 up, else 一般.
 */
export const strengthLevel = (v: PasswordVerdict): StrengthLevel => (!v.ok ? 'weak' : v.score >= 3 ? 'strong' : 'fair');
export const strengthTexts = (lang: Lang = 'zh') => LEVELS[lang];

/** Waits this long after the last keystroke before asking the server. */
export const PASSWORD_CHECK_DELAY_MS = 300;

/**
 * A strength meter's state for the password `password()` returns: asked of the server (`check`, which never loads
 * the zxcvbn dictionaries into the browser) after a pause in typing; an answer to an older text is dropped, and a
 * failed check (offline, rate-limited) hides the meter rather than guessing.
 *
 * @example const meter = usePasswordCheck(() => form.next, (p) => postPasswordCheck(session, p));
 */
export function usePasswordCheck(
  password: () => string,
  check: (password: string) => Promise<PasswordVerdict | undefined>,
  delayMs = PASSWORD_CHECK_DELAY_MS,
) {
  const state = reactive({
    verdict: undefined as PasswordVerdict | undefined,
    level: undefined as StrengthLevel | undefined,
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = 0;
  watch(password, (value) => {
    clearTimeout(timer);
    const ticket = ++asked;
    if (!value) {
      state.verdict = undefined;
      state.level = undefined;
      return;
    }
    timer = setTimeout(async () => {
      const verdict = await check(value).catch(() => undefined);
      if (ticket !== asked) return;
      state.verdict = verdict;
      state.level = verdict && strengthLevel(verdict);
    }, delayMs);
  });
  return state;
}

/** Asks the server for `password`'s verdict; undefined when it gave none (the meter then hides). */
export async function postPasswordCheck(
  session: ReturnType<typeof createSession>,
  password: string,
): Promise<PasswordVerdict | undefined> {
  const r = await session.api.POST('/api/auth/password-check', { body: { password } });
  return r.response.ok ? r.data?.data : undefined;
}
