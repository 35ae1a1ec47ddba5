import { computed, reactive } from 'vue';
import type { createAppSession } from './app-session';
import type { FieldErrors } from './field-errors';
import { useIdentityProof } from './identity-proof';
import { codeDigits, CODE_LENGTH } from './sign-in';

type AppSession = Pick<ReturnType<typeof createAppSession>, 'session' | 'call' | 'currentUser'>;

/**
 * Two-step sign-in (TOTP) of one's own account, as both apps manage it: turn on (the server's secret and QR code,
 * confirmed with a current code, optionally signing out the other devices), turn off and replace the recovery codes
 * (each proven by the current password), and the ten recovery codes, shown once after either. Turning on asks the
 * current password again when the sign-in is too old for the server (`proof`, drawn by the app; a wrong one shows
 * under `passwordForm`'s password field). The server decides everything; the apps draw this state in their UI kit
 * and ask for the password their own way.
 */
export function useTwoFactor(app: AppSession, form?: FieldErrors, passwordForm?: FieldErrors) {
  const { session, call } = app;
  const proof = useIdentityProof(app, passwordForm);
  const state = reactive({
    setup: null as { secret: string; qrDataUrl: string } | null,
    code: '',
    /** Whether enabling also signs out the account's other devices (the server does it: signOutOthers). */
    signOutOthers: true,
    recoveryCodes: [] as string[],
    busy: false,
    /** This enrolment was the one a role required: once the codes are saved, the app goes on to its home. */
    wasRequired: false,
  });
  const enabled = computed(() => app.currentUser.value?.totpEnabled === true);
  const required = computed(() => app.currentUser.value?.totpRequired === true);

  async function busy<T>(fn: () => Promise<T>): Promise<T> {
    state.busy = true;
    try {
      return await fn();
    } finally {
      state.busy = false;
    }
  }

  /** A role requires it and it is off: the server refuses everything else (403 TOTP_SETUP_REQUIRED) until it is on. */
  const mustEnrol = computed(() => app.currentUser.value !== null && session.pendingStep === 'TOTP_SETUP_REQUIRED');
  /** Asks the server for a new secret (replacing a pending one) and shows its QR code. */
  const start = () =>
    proof.withProof(() =>
      busy(async () => {
        const { secret, qrDataUrl } = (await call(session.api.POST('/api/auth/totp/setup'))).data;
        state.setup = { secret, qrDataUrl };
        state.code = '';
      }),
    );

  return {
    state,
    enabled,
    required,
    mustEnrol,
    /**
     * On the page the app lands on while it must be turned on: the set-up starts at once (the QR code shows, no
     * click). Right after the sign-in no password is asked; an older session asks it first (`proof`).
     */
    async startIfRequired() {
      if (mustEnrol.value && !state.setup && !state.busy) await start();
    },
    /** The question for the current password that turning on may need first (`useIdentityProof`). */
    proof,
    start,
    /** The code field's text, digits only (typed or pasted with spaces). */
    input(raw: string) {
      state.code = codeDigits(raw);
    },
    /** Whether the code is complete (the confirm button's rule; the server checks it). */
    codeComplete: computed(() => state.code.length === CODE_LENGTH),
    /** Turns it on with the current code: the recovery codes show; resolves how many other devices were signed out. */
    confirm: () =>
      proof.withProof(() =>
        busy(async () => {
          const wasRequired = mustEnrol.value;
          const res = await call(
            session.api.POST('/api/auth/totp/enable', {
              body: { code: state.code, signOutOthers: state.signOutOthers },
            }),
            { form },
          );
          state.recoveryCodes = res.data.recoveryCodes;
          state.wasRequired = wasRequired;
          state.setup = null;
          await session.me();
          return res.data.signedOut;
        }),
      ),
    cancel() {
      state.setup = null;
      state.code = '';
    },
    /** Turns it off, proven by the current password (a wrong one shows under `passwordForm`'s password field). */
    disable: (password: string, passwordForm?: FieldErrors) =>
      busy(async () => {
        await call(session.api.POST('/api/auth/totp/disable', { body: { password } }), { form: passwordForm });
        state.recoveryCodes = [];
        await session.me();
      }),
    /** Ten new recovery codes in place of the old ones (all stop working), proven by the current password. */
    regenerate: (password: string, passwordForm?: FieldErrors) =>
      busy(async () => {
        const res = await call(session.api.POST('/api/auth/totp/recovery-codes', { body: { password } }), {
          form: passwordForm,
        });
        state.recoveryCodes = res.data.recoveryCodes;
      }),
    /**
     * The user saved them: they leave the screen for good. True when this was the set-up a role required: the app
     * goes on to its home page, which works now.
     */
    saved(): boolean {
      state.recoveryCodes = [];
      const wasRequired = state.wasRequired;
      state.wasRequired = false;
      return wasRequired;
    },
  };
}
