import { describe, expect, it } from 'vitest';
import { signIn, signInTotp } from './sign-in';

describe('sign-in with an optional TOTP step', () => {
  it('a login that returns the user is done', async () => {
    const step = await signIn({ login: async () => ({ id: 'u1', username: 'a' }) }, 'a', 'p');
    expect(step).toEqual({ kind: 'done', user: { id: 'u1', username: 'a' } });
  });

  it('a login answered with mfaRequired asks for the code, and loginTotp finishes it', async () => {
    const calls: string[][] = [];
    const s = {
      login: async () => ({ mfaRequired: true, mfaToken: 'mfa-1' }),
      loginTotp: async (token: string, code: string) => void calls.push([token, code]),
    };
    const step = await signIn(s, 'a', 'p');
    expect(step).toEqual({ kind: 'totp', mfaToken: 'mfa-1' });
    await signInTotp(s, 'mfa-1', '123456');
    expect(calls).toEqual([['mfa-1', '123456']]);
  });

  it('without loginTotp in the SDK the code step says so in Chinese', async () => {
    await expect(signInTotp({ login: async () => ({}) }, 't', '123456')).rejects.toThrow('两步验证');
  });
});
