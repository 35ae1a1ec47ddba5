/**
 * The bench's server children (bench/server.ts under tsx): start one and wait for its port, ask it for its CPU time,
 * stop it. Shared by `npm run bench` (run.ts) and `npm run bench:ab` (ab.ts).
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CpuMessage, ReadyMessage, ServerKind } from './server.js';

export interface Server {
  child: ChildProcess;
  port: number;
}

const here = path.dirname(fileURLToPath(import.meta.url));

/** Forks bench/server.ts under tsx and resolves with the port it listens on. */
export function startServer(
  kind: ServerKind,
  args: string[] = [],
  cpuProf?: string,
  /** Another checkout's copy of server.ts (bench:ab); default: this one. */
  entry = path.join(here, 'server.ts'),
): Promise<Server> {
  const child = fork(entry, [kind, ...args], {
    execArgv: ['--import', import.meta.resolve('tsx'), ...(cpuProf ? ['--cpu-prof', '--cpu-prof-dir', cpuProf] : [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m: ReadyMessage) => resolve({ child, port: m.port }));
    child.once('exit', (code) => reject(new Error(`${kind} server exited early (code ${code})`)));
    child.once('error', reject);
  });
}

export function cpuOf(server: Server): Promise<CpuMessage> {
  return new Promise((resolve) => {
    const onMessage = (m: CpuMessage) => {
      if (typeof m?.cpu !== 'number') return;
      server.child.off('message', onMessage);
      resolve(m);
    };
    server.child.on('message', onMessage);
    server.child.send('cpu');
  });
}

export function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
