import { describe, expect, it } from 'vitest';
import { nextTick } from 'vue';
import { ApiError, MfaRequiredError, type Me } from '@tianji/client';
import { codeDigits, recoveryCodeOf, signIn, signInFailure, useSecondStep, useSignInFlow } from './sign-in';

const user = { id: 'u1', username: 'a' } as unknown as Me;
const never = async (): Promise<Me> => {
  throw new Error('not expected');
};

describe('sign-in with an optional TOTP step', () => {
  it('a login that returns the user is done', async () => {
    const step = await signIn({ login: async () => user, loginTotp: never }, 'a', 'p');
    expect(step).toEqual({ kind: 'done', user });
  });

  it('a login refused with MfaRequiredError asks for the code', async () => {
    const s = {
      login: async (): Promise<Me> => {
        throw new MfaRequiredError('mfa-1');
      },
      loginTotp: never,
    };
    expect(await signIn(s, 'a', 'p')).toEqual({ kind: 'totp', mfaToken: 'mfa-1' });
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

describe('the second step’s code field', () => {
  it('keeps the digits of a typed or pasted code, at most six', () => {
    expect(codeDigits('123 456')).toBe('123456');
    expect(codeDigits(' 123-456 ')).toBe('123456');
    expect(codeDigits('１２３４５６')).toBe('123456');
    expect(codeDigits('12345678')).toBe('123456');
    expect(codeDigits('abc')).toBe('');
  });

  it('writes a recovery code as the server prints it', () => {
    expect(recoveryCodeOf('ABCDE 12345')).toBe('abcde-12345');
    expect(recoveryCodeOf('abcde12345')).toBe('abcde-12345');
    expect(recoveryCodeOf('abc')).toBe('abc');
  });

  /** A second step whose verify records each code and answers with `answer`. */
  function step(answer: () => Promise<unknown> = async () => undefined) {
    const sent: string[] = [];
    const restarts: string[] = [];
    const s = useSecondStep({
      verify: (code) => {
        sent.push(code);
        return answer();
      },
      restart: (text) => restarts.push(text),
    });
    return { s, sent, restarts };
  }

  it('submits by itself at the sixth digit, once, whatever else is pressed meanwhile or after', async () => {
    let release!: () => void;
    const { s, sent } = step(() => new Promise<void>((r) => (release = r)));
    s.input('12345');
    expect(sent).toEqual([]);
    s.input('123 456');
    expect(sent).toEqual(['123456']);
    await s.submit(); // Enter while the request is out
    s.input('123456');
    release();
    await nextTick();
    await new Promise((r) => setTimeout(r, 0));
    await s.submit(); // Enter after success
    expect(sent).toEqual(['123456']);
    expect(s.state.done).toBe(true);
  });

  it('shows the server’s refusal under the field and empties it for the next try', async () => {
    const { s, sent } = step(async () => {
      throw new ApiError(401, 'UNAUTHORIZED', '两步验证码错误或已使用 (invalid TOTP or recovery code)');
    });
    s.input('111111');
    await new Promise((r) => setTimeout(r, 0));
    expect(s.state.error).toBe('两步验证码错误或已使用');
    expect(s.state.value).toBe('');
    s.input('222222');
    expect(sent).toEqual(['111111', '222222']);
  });

  it('takes a recovery code instead, submitted on request only', async () => {
    const { s, sent } = step();
    s.toggleMode();
    s.input('ABCDE12345');
    expect(sent).toEqual([]);
    expect(s.state.value).toBe('abcde-12345');
    await s.submit();
    expect(sent).toEqual(['abcde-12345']);
  });

  it('an incomplete code is not sent, and says what is expected', async () => {
    const { s, sent } = step();
    s.input('123');
    await s.submit();
    expect(sent).toEqual([]);
    expect(s.state.error).toBe('请输入 6 位数字验证码');
  });

  it('an expired sign-in starts over at the password', async () => {
    const { s, restarts } = step(async () => {
      throw new ApiError(401, 'TOKEN_EXPIRED', '登录已过期，请重新登录（mfa token expired）');
    });
    s.input('123456');
    await new Promise((r) => setTimeout(r, 0));
    expect(restarts).toEqual(['登录已超时，请重新输入用户名和密码']);
  });

  it('says a throttle’s wait in minutes', () => {
    const e = new ApiError(429, 'TOO_MANY_REQUESTS', '登录失败次数过多，请在 2 分钟后重试 (retry after 90 s)');
    expect(signInFailure(e, 'code').text).toBe('尝试次数过多，请 2 分钟后再试');
  });
});

describe('signed in with a recovery code', () => {
  /** A session whose second step answers as the server does for a recovery code (left) or a TOTP code (null). */
  function flowAfter(left: number | null, lang: 'zh' | 'en' = 'zh') {
    const told: string[] = [];
    const session = {
      recoveryCodesLeft: null as number | null,
      login: async (): Promise<Me> => {
        throw new MfaRequiredError('mfa-1');
      },
      loginTotp: async () => {
        session.recoveryCodesLeft = left;
        return user;
      },
    };
    const flow = useSignInFlow({ session, lang: () => lang, failed: () => {}, told: (text) => told.push(text) });
    return { flow, told };
  }

  it('tells the user how many recovery codes are left, and urges new ones when few or none remain', async () => {
    for (const [left, said] of [
      [7, '已使用恢复码登录，还剩 7 个恢复码'],
      [2, '已使用恢复码登录，还剩 2 个恢复码，请尽快在个人资料中重新生成恢复码'],
      [
        0,
        '已使用恢复码登录，恢复码已全部用完：请立即在个人资料中重新生成恢复码，否则丢失验证器后只能由管理员重置两步验证',
      ],
    ] as const) {
      const { flow, told } = flowAfter(left);
      await flow.submit('a', 'p');
      flow.toggleMode();
      flow.step.input('abcde12345');
      await flow.step.submit();
      expect(told).toEqual([said]);
    }
    const { flow, told } = flowAfter(9, 'en');
    await flow.submit('a', 'p');
    flow.toggleMode();
    flow.step.input('abcde12345');
    await flow.step.submit();
    expect(told).toEqual(['Signed in with a recovery code. 9 left.']);
  });

  it('says nothing after a sign-in with the authenticator’s code', async () => {
    const { flow, told } = flowAfter(null);
    await flow.submit('a', 'p');
    flow.step.input('123456');
    await nextTick();
    await flow.step.submit();
    expect(flow.step.state.done).toBe(true);
    expect(told).toEqual([]);
  });
});
