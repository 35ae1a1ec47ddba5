import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * Throwaway PostgreSQL and Redis servers for the cluster test, on free ports in a temporary folder, so that the
 * test can kill and restart them without touching the machine's shared ones (others run tests on those).
 */

export async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every 50 ms until it returns true or `ms` pass; resolves to whether it did. */
export async function waitFor(check: () => Promise<boolean> | boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      if (await check()) return true;
    } catch {
      // not yet
    }
    if (Date.now() >= end) return false;
    await sleep(50);
  }
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((r) => child.once('exit', () => r()));
}

/** A PostgreSQL server of its own: initdb into a temporary folder, run as the `postgres` user when we are root. */
export class ThrowawayPostgres {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tianji-cluster-pg-'));
  private child?: ChildProcess;
  private readonly bin: string;
  private readonly owner?: { uid: number; gid: number };

  constructor(readonly port: number) {
    const versions = fs.readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
    if (!versions.length) throw new Error('no PostgreSQL under /usr/lib/postgresql');
    this.bin = `/usr/lib/postgresql/${versions[0]}/bin`;
    if (process.getuid?.() === 0) {
      this.owner = {
        uid: Number(execFileSync('id', ['-u', 'postgres']).toString()),
        gid: Number(execFileSync('id', ['-g', 'postgres']).toString()),
      };
      fs.chownSync(this.dir, this.owner.uid, this.owner.gid);
    }
  }

  get url() {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  async init() {
    execFileSync(
      `${this.bin}/initdb`,
      ['-D', path.join(this.dir, 'data'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'],
      { stdio: 'ignore', ...this.owner },
    );
    await this.start();
  }

  async start() {
    this.child = spawn(
      `${this.bin}/postgres`,
      [
        '-D',
        path.join(this.dir, 'data'),
        '-p',
        String(this.port),
        '-k',
        this.dir,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'fsync=off',
        '-c',
        'max_connections=200',
      ],
      { stdio: 'ignore', ...this.owner },
    );
    const up = await waitFor(async () => {
      const c = new pg.Client({ connectionString: this.url });
      await c.connect();
      await c.end();
      return true;
    }, 20_000);
    if (!up) throw new Error(`throwaway PostgreSQL did not start on port ${this.port}`);
  }

  /** Fast shutdown (SIGINT): open connections are cut, as in a restart by the operator. */
  async stop() {
    if (!this.child) return;
    const child = this.child;
    this.child = undefined;
    child.kill('SIGINT');
    await Promise.race([exited(child), sleep(10_000)]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited(child);
  }

  async query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<R[]> {
    const c = new pg.Client({ connectionString: this.url });
    await c.connect();
    try {
      return (await c.query<R>(text, values)).rows;
    } finally {
      await c.end();
    }
  }

  async destroy() {
    await this.stop().catch(() => undefined);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A redis-server of its own on a free port, no persistence. */
export class ThrowawayRedis {
  private child?: ChildProcess;
  constructor(readonly port: number) {}

  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start() {
    this.child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    const up = await waitFor(
      () =>
        new Promise<boolean>((resolve) => {
          const s = net.connect(this.port, '127.0.0.1', () => {
            s.end();
            resolve(true);
          });
          s.on('error', () => resolve(false));
        }),
      10_000,
    );
    if (!up) throw new Error(`throwaway redis-server did not start on port ${this.port}`);
  }

  async stop() {
    const child = this.child;
    this.child = undefined;
    if (!child) return;
    child.kill('SIGKILL');
    await exited(child);
  }
}
