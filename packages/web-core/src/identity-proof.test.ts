import { describe, expect, it } from 'vitest';
import { ApiError, ReauthRequiredError } from '@tianji/client';
import { useFieldErrors } from './field-errors';
import { useIdentityProof } from './identity-proof';

/**
 * The proof flow over a stand-in for the app session: POST /api/auth/reauth accepts only `right`, and `call` maps a
 * refusal as the app's does (under the form's field when it names one). The browser tests drive it on a real server.
 */
function harness(right = 'right-password') {
  const sent: string[] = [];
  const app = {
    session: {
      api: {
        POST: async (_path: '/api/auth/reauth', init: { body: { password: string } }) => {
          sent.push(init.body.password);
          if (init.body.password === right) return { data: { data: { until: '' } } };
          throw new ApiError(400, 'VALIDATION_ERROR', '参数 password 无效：密码不正确');
        },
      },
    },
    call: async <T>(p: Promise<T>, opts: { form?: ReturnType<typeof useFieldErrors> } = {}) => {
      try {
        return await p;
      } catch (e) {
        opts.form?.show(e);
        throw e;
      }
    },
  };
  const form = useFieldErrors(() => ({ password: '当前密码' }));
  const proof = useIdentityProof(app as never, form);
  return { sent, form, proof };
}

const refused = () => new ReauthRequiredError('此操作需要先验证身份：请输入当前密码');

/** An action the server refuses until a proof was given, counting its runs. */
function guarded(proven: () => boolean) {
  const runs = { n: 0 };
  const action = async () => {
    runs.n++;
    if (!proven()) throw refused();
    return 'done';
  };
  return { runs, action };
}

describe('a fresh proof of identity before an account-security change', () => {
  it('asks when the server refuses, keeps asking after a wrong password, then runs the action once more', async () => {
    const h = harness();
    const { runs, action } = guarded(() => h.sent.includes('right-password'));
    const result = h.proof.withProof(action);
    await new Promise((r) => setTimeout(r));
    expect(h.proof.state.asking).toBe(true);
    h.proof.state.password = 'wrong';
    expect(await h.proof.submit()).toBe(false);
    expect(h.form.errors.password).toBe('当前密码无效：密码不正确');
    expect(h.proof.state.asking).toBe(true);
    h.proof.state.password = 'right-password';
    expect(await h.proof.submit()).toBe(true);
    expect(await result).toBe('done');
    expect(runs.n).toBe(2);
    expect(h.proof.state).toMatchObject({ asking: false, password: '' });
  });

  it('a cancelled question changes nothing: the refusal surfaces and the action is not run again', async () => {
    const h = harness();
    const { runs, action } = guarded(() => false);
    const result = h.proof.withProof(action);
    await new Promise((r) => setTimeout(r));
    h.proof.cancel();
    await expect(result).rejects.toBeInstanceOf(ReauthRequiredError);
    expect(runs.n).toBe(1);
    expect(h.sent).toEqual([]);
  });

  it('asks nothing when the action needs no proof or fails otherwise', async () => {
    const h = harness();
    expect(await h.proof.withProof(async () => 1)).toBe(1);
    const other = new ApiError(400, 'VALIDATION_ERROR', '参数 code 无效：两步验证码错误');
    await expect(
      h.proof.withProof(async () => {
        throw other;
      }),
    ).rejects.toBe(other);
    expect(h.proof.state.asking).toBe(false);
  });
});
