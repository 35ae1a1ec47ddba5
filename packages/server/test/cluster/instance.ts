import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, sleep, waitFor } from './services.js';

/** The compiled server (npm run build): the cluster runs what ships. */
export const SERVER_JS = fileURLToPath(new URL('../../dist/server.js', import.meta.url));

export interface InstanceOptions {
  name: string;
  env: Record<string, string>;
  /** Folder for the instance's data and log file. */
  dir: string;
  /** 'file' (default): stdout and stderr go to <dir>/<name>.log; 'pipe': a pipe the caller reads, or does not. */
  stdout?: 'file' | 'pipe';
}

/** One tianji process. */
export class Instance {
  port = 0;
  child?: ChildProcess;
  readonly log: string;

  constructor(readonly opts: InstanceOptions) {
    this.log = path.join(opts.dir, `${opts.name}.log`);
  }

  get name() {
    return this.opts.name;
  }
  get url() {
    return `http://127.0.0.1:${this.port}`;
  }
  get alive() {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts the process (same port as before on a restart) and waits until it answers /healthz. */
  async start(waitMs = 90_000): Promise<void> {
    this.port ||= await freePort();
    fs.mkdirSync(this.opts.dir, { recursive: true });
    const fd = this.opts.stdout === 'pipe' ? undefined : fs.openSync(this.log, 'a');
    const stdio: StdioOptions = fd === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', fd, fd];
    this.child = spawn(process.execPath, [SERVER_JS], {
      env: {
        PATH: process.env.PATH ?? '',
        LOG_LEVEL: 'info',
        DATA_DIR: path.join(this.opts.dir, this.name),
        ...this.opts.env,
        PORT: String(this.port),
        HOST: '127.0.0.1',
      },
      stdio,
    });
    if (fd !== undefined) fs.closeSync(fd);
    const up = await waitFor(async () => {
      if (!this.alive) throw new Error('exited');
      return (await fetch(`${this.url}/healthz`, { signal: AbortSignal.timeout(1000) })).ok;
    }, waitMs);
    if (!up)
      throw new Error(
        `${this.name} did not start within ${waitMs / 1000} s (exit ${this.child.exitCode}); see ${this.log}`,
      );
  }

  /** Resolves with the exit once the process has ended. */
  exited(): Promise<{ code: number | null; signal: string | null }> {
    const child = this.child!;
    if (child.exitCode !== null || child.signalCode !== null)
      return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
    return new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })));
  }

  kill() {
    this.child?.kill('SIGKILL');
    return this.exited();
  }

  /**
   * Sends SIGTERM and measures how long the process takes to exit. Past `limitMs` it is killed (and reported as
   * hung) so that a failing run never leaves processes behind.
   */
  async terminate(limitMs = 15_000): Promise<{ ms: number; code: number | null; hung: boolean }> {
    const t0 = Date.now();
    this.child!.kill('SIGTERM');
    const done = await Promise.race([this.exited(), sleep(limitMs).then(() => undefined)]);
    if (!done) {
      await this.kill();
      return { ms: Date.now() - t0, code: null, hung: true };
    }
    return { ms: Date.now() - t0, code: done.code, hung: false };
  }

  logText(): string {
    try {
      return fs.readFileSync(this.log, 'utf8');
    } catch {
      return '';
    }
  }
}

/** Waits until `url` answers with `status` (any body), polling; resolves to whether it did within `ms`. */
export function waitForStatus(url: string, status: number, ms: number) {
  return waitFor(async () => (await fetch(url, { signal: AbortSignal.timeout(1000) })).status === status, ms);
}
