import { nextTick, reactive, ref } from 'vue';
import { ApiError, MfaRequiredError, type Me } from '@tianji/client';
import { chinesePart, type Lang } from './texts';
import { PasskeysUnsupported, passkeyFailure, signInWithPasskey, type PasskeyLoginCapable } from './passkeys';

/**
 * Sign-in with an optional second step (TOTP), as both web apps show it: the password step, then a code field that
 * takes typing and paste, submits itself at six digits, and switches to a recovery code on request.
 */
export type SignInStep = { kind: 'done'; user: Me } | { kind: 'totp'; mfaToken: string };

/** What the sign-in page needs of a session (the SDK's `Session`). */
export interface LoginCapable {
  login(username: string, password: string): Promise<Me>;
  loginTotp(mfaToken: string, code: string): Promise<Me>;
  /** After a sign-in with a recovery code: the unused codes left (null otherwise). */
  readonly recoveryCodesLeft?: number | null;
}

/** The password step: done, or the account has two-step sign-in and the code comes next. */
export async function signIn(s: LoginCapable, username: string, password: string): Promise<SignInStep> {
  try {
    return { kind: 'done', user: await s.login(username, password) };
  } catch (e) {
    if (e instanceof MfaRequiredError) return { kind: 'totp', mfaToken: e.mfaToken };
    throw e;
  }
}

export const CODE_LENGTH = 6;

/** The sign-in's words in both interface languages. */
const SIGN_IN_TEXTS = {
  zh: {
    unreachable: '无法连接服务器，请稍后再试',
    throttled: (minutes: number) => `尝试次数过多，请 ${minutes} 分钟后再试`,
    invalid: '用户名或密码错误',
    wrongCode: '验证码错误或已使用，请重试',
    expired: '登录已超时，请重新输入用户名和密码',
    codeRequired: '请输入 6 位数字验证码',
    recoveryRequired: '请输入恢复码（10 位字母或数字，如 abcde-12345）',
    codeHint: '请输入身份验证器中的 6 位验证码',
    recoveryHint: '请输入一个未使用过的恢复码，每个恢复码只能使用一次',
    useRecovery: '使用恢复码',
    useCode: '使用验证码',
    codesLeft: (n: number) =>
      n === 0
        ? '已使用恢复码登录，恢复码已全部用完：请立即在个人资料中重新生成恢复码，否则丢失验证器后只能由管理员重置两步验证'
        : `已使用恢复码登录，还剩 ${n} 个恢复码${n <= 3 ? '，请尽快在个人资料中重新生成恢复码' : ''}`,
  },
  en: {
    unreachable: 'Cannot reach the server. Please try again later.',
    throttled: (minutes: number) => `Too many attempts. Try again in ${minutes} min.`,
    invalid: 'Wrong username or password',
    wrongCode: 'Wrong or already used code. Please try again.',
    expired: 'The sign-in timed out. Please enter your username and password again.',
    codeRequired: 'Enter the 6-digit code',
    recoveryRequired: 'Enter a recovery code (10 letters or digits, like abcde-12345)',
    codeHint: 'Enter the 6-digit code from your authenticator app',
    recoveryHint: 'Enter a recovery code you have not used yet; each works once',
    useRecovery: 'Use a recovery code',
    useCode: 'Use the authenticator code',
    codesLeft: (n: number) =>
      n === 0
        ? 'Signed in with a recovery code. None are left: generate new ones in your profile now, or only an administrator can reset your two-step sign-in if you lose your authenticator.'
        : `Signed in with a recovery code. ${n} left${n <= 3 ? ': generate new ones in your profile soon' : ''}.`,
  },
};
export const signInTexts = (lang: Lang = 'zh') => SIGN_IN_TEXTS[lang];

/**
 * What a failed sign-in step says, and whether the sign-in must start over (the 5-minute mfaToken expired or was
 * used). A throttle's wait is said in whole minutes; the server's wrong-code message in Chinese (its English detail
 * in brackets is for logs); anything that is not the server's answer is 「无法连接服务器」.
 */
export function signInFailure(
  e: unknown,
  step: 'password' | 'code',
  lang: Lang = 'zh',
): { text: string; restart: boolean } {
  const t = SIGN_IN_TEXTS[lang];
  if (!(e instanceof ApiError) || e.status === 0) return { text: t.unreachable, restart: false };
  if (e.code === 'TOO_MANY_REQUESTS') {
    const seconds = Number(/(\d+) s\b/.exec(e.message)?.[1] ?? 60);
    return { text: t.throttled(Math.max(1, Math.ceil(seconds / 60))), restart: false };
  }
  if (e.status === 401 && step === 'password') return { text: t.invalid, restart: false };
  if (e.status === 401) {
    if (e.code === 'TOKEN_EXPIRED' || /mfa ?token/i.test(e.message)) return { text: t.expired, restart: true };
    const chinese = chinesePart(e.message);
    return { text: lang === 'zh' && chinese ? chinese : t.wrongCode, restart: false };
  }
  return { text: e.message || t.unreachable, restart: false };
}

/** A typed or pasted 6-digit code: its digits only (「123 456」, 「123-456」, full-width ０-９), at most six. */
export function codeDigits(raw: string): string {
  return raw
    .replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0))
    .replace(/\D/g, '')
    .slice(0, CODE_LENGTH);
}

/** A typed or pasted recovery code as the server prints it: lower case, `xxxxx-xxxxx` once ten characters are in. */
export function recoveryCodeOf(raw: string): string {
  const chars = raw
    .toLowerCase()
    .replace(/[^0-9a-z]/g, '')
    .slice(0, 10);
  return chars.length > 5 ? `${chars.slice(0, 5)}-${chars.slice(5)}` : chars;
}

export type SecondStepMode = 'code' | 'recovery';

export interface SecondStepOptions {
  /** Sends the code (the session's loginTotp with the current mfaToken); throws the server's refusal. */
  verify: (code: string) => Promise<unknown>;
  /** The sign-in must start over (the mfaToken expired): back to the password step, where `text` is shown. */
  restart: (text: string) => void;
  lang?: () => Lang;
}

/**
 * The second step's field: `input` normalises what was typed or pasted (digits only, or a recovery code) and, in
 * code mode, submits by itself when the sixth digit arrives — once: a press of Enter or the button while that
 * request is out, or after it succeeded, sends nothing more. The server's refusal shows under the field
 * (`state.error`) and empties it for the next try. `toggleMode` switches to a recovery code and back.
 */
export function useSecondStep(o: SecondStepOptions) {
  const state = reactive({ mode: 'code' as SecondStepMode, value: '', error: '', busy: false, done: false });
  const t = () => SIGN_IN_TEXTS[o.lang?.() ?? 'zh'];
  const complete = () =>
    state.mode === 'code' ? state.value.length === CODE_LENGTH : /^[0-9a-z]{5}-[0-9a-z]{5}$/.test(state.value);

  async function submit(): Promise<void> {
    if (state.busy || state.done) return;
    if (!complete()) {
      state.error = state.mode === 'code' ? t().codeRequired : t().recoveryRequired;
      return;
    }
    state.busy = true;
    state.error = '';
    try {
      await o.verify(state.value);
      state.done = true;
    } catch (e) {
      const failure = signInFailure(e, 'code', o.lang?.() ?? 'zh');
      state.value = '';
      if (failure.restart) o.restart(failure.text);
      else state.error = failure.text;
    } finally {
      state.busy = false;
    }
  }

  /** What the field shows for `raw` in the current mode (a UI kit's formatter, so the input never shows more). */
  const format = (raw: string) => (state.mode === 'code' ? codeDigits(raw) : recoveryCodeOf(raw));

  return {
    state,
    format,
    /** The field's new text (typed or pasted): normalised, and submitted at the sixth digit. */
    input(raw: string): void {
      const before = state.value;
      state.value = format(raw);
      if (state.value === before) return;
      state.error = '';
      if (state.mode === 'code' && state.value.length === CODE_LENGTH) void submit();
    },
    submit,
    toggleMode(): void {
      state.mode = state.mode === 'code' ? 'recovery' : 'code';
      state.value = '';
      state.error = '';
    },
    /** The field's hint and the switch's label for the current mode. */
    texts() {
      const x = t();
      return state.mode === 'code'
        ? { hint: x.codeHint, toggle: x.useRecovery }
        : { hint: x.recoveryHint, toggle: x.useCode };
    },
  };
}
export type SecondStep = ReturnType<typeof useSecondStep>;

export interface SignInFlowOptions {
  /** The SDK's session; a session without the passkey calls (an older SDK, a test's fake) keeps the password flow. */
  session: LoginCapable & Partial<PasskeyLoginCapable>;
  lang?: () => Lang;
  /** Shows a failed password step (the app's toast); `e` is the server's refusal or a network error. */
  failed: (e: unknown) => void;
  /** Shows a failed passkey sign-in in words (`passkeyFailure`: cancelled, not accepted, throttled…). */
  passkeyFailed?: (text: string) => void;
  /** Shows, once signed in, what the user should know of it: the recovery codes left after using one. */
  told?: (text: string) => void;
}

/**
 * A sign-in page's whole flow, both apps alike: the password step (one request at a time), then, for an account with
 * two-step sign-in, the code step (`step`, focused on arrival and after switching to a recovery code); a timed-out
 * code step starts over at the password with `restarted` saying why. Once signed in, the app's router takes over.
 *
 * @example const flow = useSignInFlow({ session, failed: (e) => toast(signInFailure(e, 'password').text) });
 */
export function useSignInFlow(o: SignInFlowOptions) {
  const state = reactive({ mfaToken: '', restarted: '', busy: false });
  /** The code field (the app's input component), focused when the code step shows. */
  const codeField = ref<{ focus(): void }>();
  const focusCode = () => void nextTick().then(() => codeField.value?.focus());

  const step = useSecondStep({
    verify: async (code) => {
      await o.session.loginTotp(state.mfaToken, code);
      const left = o.session.recoveryCodesLeft;
      if (left != null) o.told?.(SIGN_IN_TEXTS[o.lang?.() ?? 'zh'].codesLeft(left));
    },
    restart: (text) => {
      back();
      state.restarted = text;
    },
    lang: o.lang,
  });

  function back(): void {
    state.mfaToken = '';
    if (step.state.mode !== 'code') step.toggleMode();
    step.input('');
    step.state.error = '';
  }

  return {
    state,
    step,
    codeField,
    back,
    /** The password step; the caller has checked both fields are filled. */
    async submit(username: string, password: string): Promise<void> {
      if (state.busy) return;
      state.busy = true;
      state.restarted = '';
      try {
        const next = await signIn(o.session, username, password);
        if (next.kind === 'totp') {
          state.mfaToken = next.mfaToken;
          focusCode();
        }
      } catch (e) {
        o.failed(e);
      } finally {
        state.busy = false;
      }
    },
    /** 「使用通行密钥登录」: the browser offers this site's passkeys; no username, no second step. */
    async passkey(): Promise<void> {
      if (state.busy) return;
      state.busy = true;
      state.restarted = '';
      try {
        if (!o.session.passkeyLoginOptions || !o.session.loginWithPasskey) throw new PasskeysUnsupported();
        await signInWithPasskey(o.session as PasskeyLoginCapable);
      } catch (e) {
        const text = passkeyFailure(e, o.lang?.() ?? 'zh');
        if (o.passkeyFailed) o.passkeyFailed(text);
        else o.failed(e);
      } finally {
        state.busy = false;
      }
    },
    /** 「使用恢复码」 and back: the field empties and keeps the focus. */
    toggleMode(): void {
      step.toggleMode();
      focusCode();
    },
  };
}
