import type { Me } from '@tianji/client';

/**
 * Sign-in with an optional second step (TOTP), written against the SDK as it is today and as it is becoming: when
 * the server asks for a code, `login` answers `{ mfaRequired: true, mfaToken }` instead of the user, and the SDK's
 * `loginTotp(mfaToken, code)` finishes the sign-in. Until that method exists this adapter reads both shapes at
 * run time, so the app compiles against either SDK.
 */
export type SignInStep = { kind: 'done'; user: Me } | { kind: 'totp'; mfaToken: string };

/** What the adapter needs of a session: today's `login`, and `loginTotp` once the SDK has it. */
export interface LoginCapable {
  login(username: string, password: string): Promise<unknown>;
}
type WithTotp = { loginTotp?: (mfaToken: string, code: string) => Promise<unknown> };

export async function signIn(s: LoginCapable, username: string, password: string): Promise<SignInStep> {
  const r: unknown = await s.login(username, password);
  if (r && typeof r === 'object' && (r as { mfaRequired?: unknown }).mfaRequired === true)
    return { kind: 'totp', mfaToken: String((r as { mfaToken?: unknown }).mfaToken ?? '') };
  return { kind: 'done', user: r as Me };
}

/** Finishes a sign-in with the 6-digit code; says so in Chinese when this SDK cannot. */
export async function signInTotp(s: LoginCapable, mfaToken: string, code: string): Promise<void> {
  const f = (s as unknown as WithTotp).loginTotp;
  if (typeof f !== 'function') throw new Error('当前版本不支持两步验证登录，请在电脑端登录');
  await f.call(s, mfaToken, code);
}
