import { describe, expect, it } from 'vitest';
import { computed, ref } from 'vue';
import { ApiError } from '@tianji/client';
import { useFieldErrors } from './field-errors';
import { SCREEN_LOCK_KEY, screenLock } from './screen-lock';

/** The lock over a stand-in for the app session: POST /api/auth/reauth accepts only `right`, refusals go under the field. */
function harness(storage = memoryStorage(), key?: string) {
  const sent: string[] = [];
  const user = ref<{ username: string } | null>({ username: 'alice' });
  const signedOut: Array<() => void> = [];
  const app = {
    session: {
      api: {
        POST: async (_path: '/api/auth/reauth', init: { body: { password: string } }) => {
          sent.push(init.body.password);
          if (init.body.password === 'right') return { data: { until: '' } };
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
    currentUser: computed(() => user.value),
    onSignedOut: (h: () => void) => void signedOut.push(h),
  };
  const form = useFieldErrors(() => ({ password: '密码' }));
  const lock = screenLock(app as never, { storage, form, key });
  return {
    sent,
    user,
    form,
    lock,
    storage,
    signOut: () => {
      for (const h of signedOut) h();
    },
  };
}

function memoryStorage() {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
  };
}

describe('the lock screen', () => {
  it('stays locked after a wrong password (said under the field) and opens with the right one', async () => {
    const h = harness();
    h.lock.lock();
    expect(h.lock.locked.value).toBe(true);
    h.lock.state.password = 'wrong';
    expect(await h.lock.unlock()).toBe(false);
    expect(h.form.errors.password).toBe('密码无效：密码不正确');
    expect(h.lock.locked.value).toBe(true);
    h.lock.state.password = 'right';
    expect(await h.lock.unlock()).toBe(true);
    expect(h.lock.locked.value).toBe(false);
    expect(h.form.errors.password).toBeUndefined();
    expect(h.lock.state.password).toBe('');
    expect(h.sent).toEqual(['wrong', 'right']);
  });

  it('a reload of the same user stays locked; another user is not locked; signing out forgets it', () => {
    const storage = memoryStorage();
    harness(storage).lock.lock();
    const again = harness(storage);
    expect(again.lock.locked.value).toBe(true);
    again.user.value = { username: 'bob' };
    expect(again.lock.locked.value).toBe(false);
    again.user.value = { username: 'alice' };
    again.signOut();
    expect(again.lock.locked.value).toBe(false);
    expect(storage.getItem(SCREEN_LOCK_KEY)).toBeNull();
  });

  it('each app on the origin has its own lock: locking the desktop leaves the phone app open', () => {
    const storage = memoryStorage();
    harness(storage).lock.lock();
    const phone = harness(storage, 'tianji.m.screenLock');
    expect(phone.lock.locked.value).toBe(false);
    phone.lock.lock();
    expect(storage.getItem('tianji.m.screenLock')).toBe('alice');
    phone.signOut();
    expect(storage.getItem(SCREEN_LOCK_KEY)).toBe('alice');
  });
});
