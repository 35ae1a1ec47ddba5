import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../errors.js';
import { LoginThrottle, MemoryFailureCounter } from './throttle.js';

const WINDOW = 15 * 60 * 1000;
const wrong = new Error('wrong password');
const isWrong = (e: unknown) => e === wrong;

describe('LoginThrottle', () => {
  afterEach(() => vi.useRealTimers());

  const throttle = () => new LoginThrottle(new MemoryFailureCounter(WINDOW), { perAccount: 3, perIp: 5 });
  const fail = (t: LoginThrottle, user: string, ip: string) => t.guard(user, ip, () => Promise.reject(wrong), isWrong);

  it('answers 429 with Retry-After once an account used up its failures, whatever the address', async () => {
    const t = throttle();
    for (let i = 0; i < 3; i++) await expect(fail(t, 'alice', `10.0.0.${i}`)).rejects.toBe(wrong);
    const blocked = await t.guard('Alice', '10.0.0.9', async () => 'ok', isWrong).catch((e: AppError) => e);
    expect(blocked).toBeInstanceOf(AppError);
    expect((blocked as AppError).code).toBe('TOO_MANY_REQUESTS');
    expect(Number((blocked as AppError).headers['retry-after'])).toBe(900);
  });

  it('starts afresh when the window ends', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const t = throttle();
    for (let i = 0; i < 3; i++) await expect(fail(t, 'bob', '10.0.1.1')).rejects.toBe(wrong);
    vi.advanceTimersByTime(WINDOW + 1);
    await expect(t.guard('bob', '10.0.1.1', async () => 'ok', isWrong)).resolves.toBe('ok');
  });

  it('does not count errors that are not a wrong password, nor successes against the address', async () => {
    const t = throttle();
    const boom = new Error('database down');
    for (let i = 0; i < 10; i++) await expect(t.guard('carol', '10.0.2.1', () => Promise.reject(boom), isWrong)).rejects.toBe(boom);
    for (let i = 0; i < 10; i++) await expect(t.guard(`user${i}`, '10.0.2.1', async () => 'ok', isWrong)).resolves.toBe('ok');
    for (let i = 0; i < 3; i++) await expect(fail(t, 'carol', '10.0.2.1')).rejects.toBe(wrong);
  });

  it('refuses the attempts of a concurrent burst beyond the limit before any password check', async () => {
    const t = throttle();
    let checks = 0;
    const slow = () => new Promise<never>((_, reject) => setTimeout(() => reject(wrong), 5, checks++));
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => t.guard('dave', '10.0.3.1', slow, isWrong)));
    expect(checks).toBe(3);
    expect(results.filter((r) => r.status === 'rejected' && r.reason instanceof AppError)).toHaveLength(7);
  });
});
