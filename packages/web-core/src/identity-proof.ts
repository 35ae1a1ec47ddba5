import { reactive } from 'vue';
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { ApiError, ReauthRequiredError } from '@tianji/client';
import type { createAppSession } from './app-session';
import type { FieldErrors } from './field-errors';
import { passkeyFailure, passkeysSupported } from './passkeys';
import type { Lang } from './texts';

type AppSession = Pick<ReturnType<typeof createAppSession>, 'session' | 'call'>;

/**
 * The proof of identity an account-security change may ask for (403 REAUTH_REQUIRED: the sign-in is older than the
 * server's window): `withProof` runs the action, and when the server asks, opens the question (`state.asking`),
 * sends the typed password to POST /api/auth/reauth and runs the action once more. The apps only draw the question
 * in their UI kit (a dialog, a bottom sheet) over `state`, `submit` and `cancel`; a wrong password shows under
 * `form`'s `password` field (「当前密码无效：密码不正确」) and the question stays open. When the account has a passkey
 * and the browser can use it (`state.passkeys`), `submitPasskey` proves it with the passkey instead (issue 53).
 */
export function useIdentityProof(app: AppSession, form?: FieldErrors) {
  const { session, call } = app;
  const state = reactive({
    asking: false,
    password: '',
    busy: false,
    /** The account has a passkey this browser can offer: the question shows 「使用通行密钥验证」. */
    passkeys: false,
    /** Why the last passkey attempt did not prove it (the browser's refusal; the server's is shown by `call`). */
    passkeyError: '',
  });
  let answer: ((proven: boolean) => void) | null = null;

  /** Whether to offer the passkey: the browser can, and the account has one (its own list; quiet when it fails). */
  async function lookForPasskeys(): Promise<void> {
    state.passkeys = false;
    state.passkeyError = '';
    if (!passkeysSupported()) return;
    try {
      const { data } = await session.api.GET('/api/auth/passkeys');
      state.passkeys = (data?.data.length ?? 0) > 0;
    } catch {
      // No answer: the password stays the way to prove it.
    }
  }

  function settle(proven: boolean) {
    state.asking = false;
    state.password = '';
    state.passkeyError = '';
    const a = answer;
    answer = null;
    a?.(proven);
  }

  return {
    state,
    /**
     * `action`'s result; when the server first wants a proof, after the person gave it (the action runs a second
     * time, once). A cancelled question rethrows the server's refusal, an error already handled (`isHandled`).
     */
    async withProof<T>(action: () => Promise<T>): Promise<T> {
      try {
        return await action();
      } catch (e) {
        if (!(e instanceof ReauthRequiredError)) throw e;
        form?.clear();
        state.password = '';
        state.asking = true;
        void lookForPasskeys();
        const proven = await new Promise<boolean>((resolve) => {
          answer = resolve;
        });
        if (!proven) throw e;
      }
      return action();
    },
    /** Sends the typed password; true when it was right (the question closes and the action runs again). */
    async submit(): Promise<boolean> {
      form?.clear();
      state.busy = true;
      try {
        await call(session.api.POST('/api/auth/reauth', { body: { password: state.password } }), { form });
      } catch {
        // Shown under the field (a wrong password) or as the app's toast; the question stays open.
        return false;
      } finally {
        state.busy = false;
      }
      settle(true);
      return true;
    },
    /**
     * Proves it with one of the account's passkeys (the browser asks for the fingerprint, face or PIN); true when it
     * did. The browser's refusal (cancelled, timed out) is said in `state.passkeyError`; the server's by `call`.
     */
    async submitPasskey(lang: Lang = 'zh'): Promise<boolean> {
      form?.clear();
      state.passkeyError = '';
      state.busy = true;
      try {
        const { options, ceremony } = (await call(session.api.POST('/api/auth/passkeys/reauth/options'))).data;
        const credential = await startAuthentication({
          optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
        });
        await call(session.api.POST('/api/auth/passkeys/reauth', { body: { ceremony, credential } as never }));
      } catch (e) {
        if (!(e instanceof ApiError)) state.passkeyError = passkeyFailure(e, lang);
        return false;
      } finally {
        state.busy = false;
      }
      settle(true);
      return true;
    },
    /** The person closed the question: nothing changes. */
    cancel: () => settle(false),
  };
}
