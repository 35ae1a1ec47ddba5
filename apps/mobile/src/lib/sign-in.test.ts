import { describe, expect, it } from 'vitest';
import { MfaRequiredError, type Me } from '@tianji/client';
import { signIn, signInTotp } from './sign-in';

const user = { id: 'u1', username: 'a' } as unknown as Me;
const never = async (): Promise<Me> => {
  throw new Error('not expected');
};

describe('sign-in with an optional TOTP step', () => {
  it('a login that returns the user is done', async () => {
    const step = await signIn({ login: async () => user, loginTotp: never }, 'a', 'p');
    expect(step).toEqual({ kind: 'done', user });
  });

  it('a login refused with MfaRequiredError asks for the code, and loginTotp finishes it', async () => {
    const calls: string[][] = [];
    const s = {
      login: async (): Promise<Me> => {
        throw new MfaRequiredError('mfa-1');
      },
      loginTotp: async (token: string, code: string) => {
        calls.push([token, code]);
        return user;
      },
    };
    expect(await signIn(s, 'a', 'p')).toEqual({ kind: 'totp', mfaToken: 'mfa-1' });
    await signInTotp(s, 'mfa-1', '123456');
    expect(calls).toEqual([['mfa-1', '123456']]);
  });

  it('any other failure (wrong password) reaches the page as it was', async () => {
    const wrong = new Error('用户名或密码错误');
    const s = {
      login: async (): Promise<Me> => {
        throw wrong;
      },
      loginTotp: never,
    };
    await expect(signIn(s, 'a', 'p')).rejects.toBe(wrong);
  });
});
