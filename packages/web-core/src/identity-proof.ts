import { reactive } from 'vue';
import { ReauthRequiredError } from '@tianji/client';
import type { createAppSession } from './app-session';
import type { FieldErrors } from './field-errors';

type AppSession = Pick<ReturnType<typeof createAppSession>, 'session' | 'call'>;

/**
 * The proof of identity an account-security change may ask for (403 REAUTH_REQUIRED: the sign-in is older than the
 * server's window): `withProof` runs the action, and when the server asks, opens the question (`state.asking`),
 * sends the typed password to POST /api/auth/reauth and runs the action once more. The apps only draw the question
 * in their UI kit (a dialog, a bottom sheet) over `state`, `submit` and `cancel`; a wrong password shows under
 * `form`'s `password` field (「当前密码无效：密码不正确」) and the question stays open.
 */
export function useIdentityProof(app: AppSession, form?: FieldErrors) {
  const { session, call } = app;
  const state = reactive({ asking: false, password: '', busy: false });
  let answer: ((proven: boolean) => void) | null = null;

  function settle(proven: boolean) {
    state.asking = false;
    state.password = '';
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
    /** The person closed the question: nothing changes. */
    cancel: () => settle(false),
  };
}
