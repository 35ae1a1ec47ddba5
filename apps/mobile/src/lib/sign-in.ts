import { MfaRequiredError, type Me } from '@tianji/client';

/**
 * Sign-in with an optional second step (TOTP): when the account has two-step sign-in, the SDK's `login` throws
 * `MfaRequiredError` carrying the `mfaToken`, and `loginTotp(mfaToken, code)` finishes the sign-in.
 */
export type SignInStep = { kind: 'done'; user: Me } | { kind: 'totp'; mfaToken: string };

/** What the sign-in page needs of a session (the SDK's `Session`). */
export interface LoginCapable {
  login(username: string, password: string): Promise<Me>;
  loginTotp(mfaToken: string, code: string): Promise<Me>;
}

export async function signIn(s: LoginCapable, username: string, password: string): Promise<SignInStep> {
  try {
    return { kind: 'done', user: await s.login(username, password) };
  } catch (e) {
    if (e instanceof MfaRequiredError) return { kind: 'totp', mfaToken: e.mfaToken };
    throw e;
  }
}

/** Finishes a sign-in with the 6-digit code or a recovery code. */
export async function signInTotp(s: LoginCapable, mfaToken: string, code: string): Promise<void> {
  await s.loginTotp(mfaToken, code);
}
