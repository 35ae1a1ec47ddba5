/**
 * What `npm run bench` and `npm run bench:floors` print beside a budget: a ratio just above it must not read as the
 * budget itself next to "not met" (1.2549 against ≤ 1.25 printed as `1.25×` looked met and was not).
 */
import { describe, expect, it } from 'vitest';
import {
  budgetSummary,
  latencySummary,
  latencyVerdict,
  ratioText,
  roundsOf,
  startInOrder,
  verdict,
} from '../../../bench/harness.js';

describe('the benchmarks’ budget lines', () => {
  it('prints a third decimal only where two would read as the budget', () => {
    expect(ratioText(1.2549, 1.25)).toBe('1.255');
    expect(ratioText(1.2451, 1.25)).toBe('1.245');
    expect(ratioText(1.25, 1.25)).toBe('1.25');
    expect(ratioText(1.31, 1.25)).toBe('1.31');
    expect(ratioText(2.004, 2)).toBe('2.004');
    expect(ratioText(1.2549)).toBe('1.25');
  });

  it('names the not-met ratio so that it differs from the budget', () => {
    expect(verdict(1.2549, 1.25)).toBe('≤ 1.25×: **not met**');
    const summary = budgetSummary([
      { name: 'daily/hitokoto', ratio: 1.2549, budget: 1.25 },
      { name: 'life/almanac', ratio: 1.2, budget: 1.25 },
    ]);
    expect(summary).toContain('1 of 2 met');
    expect(summary).toContain('- not met: daily/hitokoto 1.255× (≤ 1.25×)');
    expect(summary).toContain('- met: life/almanac 1.20× (≤ 1.25×)');
  });
});

describe('bench:floors’ rounds from several starts', () => {
  it('judges the median of every round of every start, not one start’s', () => {
    // One start whose compiled code read high: its rounds must not decide the verdict on their own.
    const { text, median } = roundsOf([
      [1.31, 1.29],
      [1.18, 1.2],
      [1.21, 1.19],
    ]);
    expect(text).toBe('1.31 1.29 · 1.18 1.20 · 1.21 1.19');
    expect(median).toBe(1.21);
    expect(verdict(median, 1.25)).toBe('≤ 1.25×: met');
    expect(roundsOf([[1.4]]).median).toBe(1.4);
  });
});

describe('the password check’s latency aim', () => {
  it('is met only under the aim and with no error answer', () => {
    expect(latencyVerdict(65, 150)).toBe('p99 < 150 ms: met');
    expect(latencyVerdict(150, 150)).toBe('p99 < 150 ms: **not met**');
    expect(latencyVerdict(65, 150, '12 non-2xx')).toBe('p99 < 150 ms: **not met**');
    expect(latencyVerdict(65, undefined)).toBe('');
  });

  it('is summed up beside the CPU budgets, and a run without either prints neither', () => {
    const summary = latencySummary([
      { name: 'toolbox/password-strength', p99: 65, p99Budget: 150 },
      { name: 'toolbox/password-strength after idle', p99: 163, p99Budget: 150 },
      { name: 'daily/hitokoto', p99: 5 },
    ]);
    expect(summary).toContain('1 of 2 met');
    expect(summary).toContain('- not met: toolbox/password-strength after idle 163 ms (< 150 ms)');
    expect(latencySummary([{ name: 'daily/hitokoto', p99: 5 }])).toBe('');
    expect(budgetSummary([{ name: 'toolbox/password-strength', ratio: 19.5 }])).toBe('');
  });

  it('is set on every password target', async () => {
    const { PASSWORD_TARGETS } = await import('../../../bench/password-targets.js');
    expect(PASSWORD_TARGETS.length).toBeGreaterThanOrEqual(3);
    for (const t of PASSWORD_TARGETS) expect(t.p99Budget, t.name).toBe(150);
  });
});

describe('bench:floors’ and bench:ab’s start order', () => {
  // The process started first measured more CPU a request: a server always started first would always lean one way.
  it('starts one server after another, in the listed order and then reversed, start by start', async () => {
    const startOrder = async (start: number) => {
      const events: string[] = [];
      const servers = await startInOrder(
        start,
        ['bare', 'app', 'floor'].map((name) => async () => {
          events.push(`start ${name}`);
          await new Promise((resolve) => setTimeout(resolve, 5));
          events.push(`up ${name}`);
          return name;
        }),
      );
      return { events, servers };
    };
    const listed = ['start bare', 'up bare', 'start app', 'up app', 'start floor', 'up floor'];
    const reversed = ['start floor', 'up floor', 'start app', 'up app', 'start bare', 'up bare'];
    // Whatever the order, each server comes back in its listed place.
    const servers = ['bare', 'app', 'floor'];
    expect(await startOrder(0)).toEqual({ events: listed, servers });
    expect(await startOrder(1)).toEqual({ events: reversed, servers });
    expect(await startOrder(2)).toEqual({ events: listed, servers });
    expect(await startOrder(3)).toEqual({ events: reversed, servers });
  });
});
