/**
 * `npm start` runs the server through scripts/launcher.mjs, which gives it the container's allocator setting and
 * passes signals and the exit code through, as a supervisor (systemd, a shell's job control) expects of the process it
 * started.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const LAUNCHER = fileURLToPath(new URL('../../../scripts/launcher.mjs', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./fixtures/launched-server.mjs', import.meta.url));

/** The launcher (as scripts/start.mjs runs it) over the stand-in server; resolves once that reports ready. */
async function launch(env: Record<string, string> = {}, args: string[] = []) {
  const script = `import(${JSON.stringify(LAUNCHER)}).then((m) => m.runServer(${JSON.stringify(FIXTURE)}, ${JSON.stringify(args)}))`;
  const launcher = spawn(process.execPath, ['-e', script], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  launcher.stdout.on('data', (chunk) => (out += chunk));
  const exit = once(launcher, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  if (!args.length) {
    while (!out.includes('\n')) await once(launcher.stdout, 'data');
  }
  return { launcher, exit, output: () => out, ready: () => JSON.parse(out.split('\n')[0]) };
}

/** Whether a process is still running (signal 0 only checks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('npm start launcher', () => {
  it("starts the server with the container's MALLOC_MMAP_THRESHOLD_ and MALLOC_ARENA_MAX", async () => {
    const run = await launch();
    // No node flags either: the container's CMD is the same command (deploy-files.test.ts).
    expect(run.ready()).toEqual({ pid: expect.any(Number), execArgv: [], mmapThreshold: '131072', arenaMax: '2' });
    run.launcher.kill('SIGTERM');
    await run.exit;
  });

  it("keeps an operator's own value", async () => {
    const run = await launch({ MALLOC_MMAP_THRESHOLD_: '65536' });
    expect(run.ready().mmapThreshold).toBe('65536');
    run.launcher.kill('SIGTERM');
    await run.exit;
  });

  it('passes SIGTERM to the server and exits with its exit code', async () => {
    const run = await launch();
    run.launcher.kill('SIGTERM');
    expect(await run.exit).toEqual([7, null]);
    expect(run.output()).toContain('got SIGTERM');
  });

  it("exits with the server's own exit code", async () => {
    const run = await launch({}, ['3']);
    expect(await run.exit).toEqual([3, null]);
  });

  it('ends by the same signal when the server was killed by one', async () => {
    const run = await launch();
    // SIGINT is passed on; the stand-in has no handler for it, so it dies of it, and so does the launcher.
    run.launcher.kill('SIGINT');
    expect(await run.exit).toEqual([null, 'SIGINT']);
    expect(alive(run.ready().pid)).toBe(false);
  });
});
