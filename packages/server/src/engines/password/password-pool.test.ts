import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { LookupError } from '../../errors.js';
import { PasswordPool, SHORT_LANE_MAX } from './password-pool.js';

// zxcvbn's worst case: 64 characters of a repeated l33t word (a hundred substitution variants, each full of
// matches; several milliseconds with the fast matchers of password-matchers.ts, seconds with v3's own).
const CRAFTED = 'p4$$w0rd'.repeat(8);

/** The threads of this process that run at niceness 19, by id (Linux: /proc/self/task/<tid>/stat, field 19). */
function lowestPriorityThreads(): Set<string> {
  const tids = readdirSync('/proc/self/task').filter((tid) => {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16] === '19';
    } catch {
      return false; // the thread ended between the listing and the read
    }
  });
  return new Set(tids);
}

describe('PasswordPool', () => {
  const pools: PasswordPool[] = [];
  const pool = (budgetMs: number) => {
    const p = new PasswordPool({ workers: 1, budgetMs });
    pools.push(p);
    return p;
  };
  afterAll(() => Promise.all(pools.map((p) => p.close())));

  it('scores a password (on the event loop while the threads start, then on them)', async () => {
    const r = await pool(30_000).check('woaini1314');
    expect(r.password).toBe('woaini1314');
    expect(r.sequence[0].dictionaryName).toBe('zhCommonPasswords');
  });

  it('answers an ordinary password while a crafted long one is still being scored', async () => {
    const p = pool(60_000);
    // Load both lanes first, so the comparison is about scoring, not about starting threads.
    await Promise.all([p.check('warm'), p.check('x'.repeat(SHORT_LANE_MAX + 1))]);
    const order: string[] = [];
    // A crafted input now takes only milliseconds: four of them (one running, three queued in the long lane) keep
    // that lane busy for longer than an ordinary check takes even on a loaded machine.
    const crafted = ['p4$$w0rd', 'p4$$w0rd!', 'p4$$w0rd?', 'p4$$w0rd#'].map((w) => w.repeat(8).slice(0, 64));
    const slow = Promise.all(crafted.map((c) => p.check(c))).then(() => order.push('crafted'));
    const ordinary = await p.check('zhangwei1988');
    order.push('ordinary');
    expect(ordinary.score).toBeLessThanOrEqual(2);
    await slow;
    expect(order).toEqual(['ordinary', 'crafted']);
  });

  it('gives up on a check past its budget with a message that says so, and keeps working', async () => {
    // The crafted input needs several milliseconds; the budget is one.
    const p = pool(1);
    await p.check('y'.repeat(SHORT_LANE_MAX + 1)).catch(() => undefined); // starts the long lane's thread
    const err = await p.check(CRAFTED).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LookupError);
    expect((err as Error).message).toMatch(/^密码强度检测超时：0.001 秒内未能完成/);
    // The terminated thread is replaced: the next long password is scored normally (with room for a busy machine).
    p.budgetMs = 30_000;
    const next = await p.check('correct horse battery staple');
    expect(next.score).toBe(4);
  });

  it.runIf(process.platform === 'linux')(
    'runs the long lane at the lowest priority, so that a flood of crafted inputs leaves the CPU to ordinary checks',
    async () => {
      // Threads are compared by id, not counted: other pools of this process (earlier tests and files share it)
      // start and stop their long lanes on their own timers, which on a busy machine fall inside this test.
      await Promise.all(pools.splice(0).map((q) => q.close()));
      const p = pool(30_000);
      const before = lowestPriorityThreads();
      const added = () => [...lowestPriorityThreads()].filter((tid) => !before.has(tid));
      await p.check('zhangwei1988');
      await p.prepare(); // the ordinary lane's resident thread, loaded: it must not be one of them
      expect(added()).toEqual([]);
      await p.check('x'.repeat(SHORT_LANE_MAX + 1));
      expect(added()).toHaveLength(1);
    },
  );

  it("answers the first checks after start-up at once, while the resident thread loads, with the threads' results", async () => {
    const p = pool(30_000);
    const passwords = ['zhangwei1988', 'Tr0ub4dour&3', 'xK#9vLq!zR2@mW7p', 'P@ssw0rd2024'];
    const withoutTime = ({ calcTime: _t, ...rest }: { calcTime: number }) => rest;
    // Cold: no thread yet; every one of these is answered on the event loop before the resident thread has loaded.
    const cold = await Promise.all(passwords.map((pw) => p.check(pw)));
    expect(p.threadsReady).toBe(false);
    // Once loaded, the thread gives the same results (the strong ones are not remembered, so they are scored again).
    await p.prepare();
    expect(p.threadsReady).toBe(true);
    const warm = await Promise.all(passwords.map((pw) => p.check(pw)));
    expect(warm.map(withoutTime)).toEqual(cold.map(withoutTime));
  });

  it('keeps one thread loaded through an idle spell, and starts the others when checks queue up', async () => {
    const p = new PasswordPool({ workers: 2, budgetMs: 30_000 });
    pools.push(p);
    await p.prepare();
    expect(p.warmThreads).toBe(1);
    // A burst: the checks queue behind the resident thread, which starts the other one; all are answered meanwhile.
    const burst = Array.from({ length: 40 }, (_, i) => `xK#9vLq!zR${i}@mW7`);
    const answers = await Promise.all(burst.map((pw) => p.check(pw)));
    expect(answers.map((a) => a.password)).toEqual(burst);
    await expect.poll(() => p.warmThreads, { timeout: 20_000, interval: 50 }).toBe(2);
    // An idle spell stops the other thread; the resident one stays loaded, so the next burst waits for no thread.
    await p.stopThreads();
    expect(p.warmThreads).toBe(1);
    expect(p.threadsReady).toBe(true);
    expect((await p.check('Beijing2008!xyz')).password).toBe('Beijing2008!xyz');
  });

  it('remembers weak results only', async () => {
    const p = pool(30_000);
    const first = await p.check('qq123456');
    expect(await p.check('qq123456')).toBe(first);
    const strong = await p.check('xK#9vLq!zR2@mW7p');
    expect(await p.check('xK#9vLq!zR2@mW7p')).not.toBe(strong);
  });
});
