import path from 'node:path';
import { Instance } from './instance.js';
import { ADMIN, Tally, randomIp, type Cluster } from './harness.js';
import { sleep } from './services.js';

/** SIGTERM must end the process within this long, in every state (the promise to operators). */
export const SHUTDOWN_LIMIT_MS = 10_000;

/**
 * The states a SIGTERM may find an instance in. Each gets a fresh instance on the cluster's database; `before`
 * brings it into the state (requests it starts are not awaited: they are in flight when the signal arrives).
 */
interface ShutdownState {
  name: string;
  env?: Record<string, string>;
  stdout?: 'file' | 'pipe';
  before(i: Instance, t: Tally): Promise<void>;
}

const fire = (
  t: Tally,
  i: Instance,
  n: number,
  path: (k: number) => string,
  init: { method?: string; body?: unknown } = {},
) => {
  for (let k = 0; k < n; k++) void t.call(i.url, init.method ?? 'GET', path(k), { body: init.body, timeoutMs: 20_000 });
};
const nonce = () => Math.random().toString(36).slice(2);

const STATES: ShutdownState[] = [
  { name: 'idle', before: async () => undefined },
  {
    name: 'idle worker pools',
    async before(i, t) {
      await t.call(i.url, 'GET', '/api/password-strength?password=Tr0ub4dor%263');
      await t.call(i.url, 'GET', `/api/random-avatar/image?format=png&seed=${nonce()}`);
    },
  },
  {
    name: 'busy worker pools (long password checks)',
    async before(i, t) {
      fire(t, i, 12, (k) => `/api/password-strength?password=${encodeURIComponent('l33t'.repeat(16) + k)}`);
      await sleep(700);
    },
  },
  {
    name: 'during image rendering',
    async before(i, t) {
      fire(t, i, 24, () => `/api/random-avatar/image?format=png&size=512&seed=${nonce()}`);
      await sleep(400);
    },
  },
  {
    name: 'during password checks (sign-ins)',
    async before(i, t) {
      fire(t, i, 10, () => '/api/auth/login', { method: 'POST', body: ADMIN });
      await sleep(150);
    },
  },
  {
    name: 'during a usage flush',
    env: { USAGE_FLUSH_INTERVAL: '1s' },
    async before(i, t) {
      for (let k = 0; k < 30; k++) await t.call(i.url, 'GET', '/api/random-color', { ip: randomIp() });
      fire(t, i, 30, () => '/api/random-color');
      await sleep(950);
    },
  },
  {
    name: 'stdout closed (reader gone)',
    stdout: 'pipe',
    async before(i, t) {
      i.child!.stdout!.destroy();
      i.child!.stderr!.destroy();
      for (let k = 0; k < 50; k++) await t.call(i.url, 'GET', '/api/random-color');
    },
  },
  {
    name: 'stdout a pipe nobody reads (the reported hang)',
    stdout: 'pipe',
    env: { LOG_LEVEL: 'debug' },
    async before(i, t) {
      i.child!.stdout!.pause();
      // Well past the 64 KiB a pipe holds: every request logs a few lines.
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          for (let k = 0; k < 150; k++) await t.call(i.url, 'GET', '/api/random-color', { ip: randomIp() });
        }),
      );
    },
  },
];

/** One row per state: SIGTERM → exit time. Instances start together (the slow part) and are signalled one by one. */
export async function shutdownScenarios(c: Cluster) {
  const rows = STATES.map((s) => ({
    state: s,
    t: new Tally(`SIGTERM ${s.name}`),
    inst: new Instance({
      name: `term-${STATES.indexOf(s)}`,
      dir: path.join(c.dir, 'shutdown'),
      env: { ...c.env, ...s.env },
      stdout: s.stdout,
    }),
  }));
  c.extra.push(...rows.map((r) => r.inst));
  await Promise.all(rows.map((r) => r.inst.start()));
  for (const { state, t, inst } of rows) {
    try {
      await state.before(inst, t);
      const end = await inst.terminate(SHUTDOWN_LIMIT_MS + 5000);
      t.note(end.hung ? `still running after ${end.ms} ms (killed)` : `exited in ${end.ms} ms with code ${end.code}`);
      t.expect(!end.hung && end.ms <= SHUTDOWN_LIMIT_MS, `did not exit within ${SHUTDOWN_LIMIT_MS / 1000} s`);
    } catch (err) {
      t.expect(false, (err as Error).message);
      if (inst.alive) await inst.kill();
    }
  }
  return rows.map((r) => r.t.outcome());
}
