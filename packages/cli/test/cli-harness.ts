/**
 * Runs the real `tianji` against a real server: the CLI is bundled once per test file (esbuild, ~0.2 s) and every
 * command is a spawned `node` process with its own XDG_CONFIG_HOME; the server is buildApp on a fresh database
 * listening on 127.0.0.1.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';
import type { BuildOptions } from '../../server/src/app.js';
import type { Dialect } from '../../server/src/db/index.js';
import { getTestInstance, type TestInstance } from '../../server/test/helpers.js';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliHarness {
  t: TestInstance;
  server: string;
  /** Every route the server has, as `METHOD /path/:param`. */
  routes: Set<string>;
  /** A fresh config home (an empty `~/.config`). */
  home(): string;
  run(args: string[], opts?: { stdin?: string; home?: string; env?: Record<string, string> }): Promise<RunResult>;
  /** Starts a command that waits for something (tianji login --web): read its output while it runs. */
  start(args: string[], opts?: { home?: string; env?: Record<string, string> }): RunningCli;
  close(): Promise<void>;
}

/** A command still running: `waitFor` resolves once its stdout or stderr matches; `done` when it exits. */
export interface RunningCli {
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  done: Promise<RunResult>;
}

/** Bundles the CLI from its sources into `dir` (esbuild, ~0.2 s); returns the bundle's path. */
export async function bundleCli(dir: string): Promise<string> {
  const bundle = path.join(dir, 'tianji.cjs');
  await build({
    entryPoints: [path.join(import.meta.dirname, '../src/cli.ts')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    conditions: ['development'],
    outfile: bundle,
    logLevel: 'error',
  });
  return bundle;
}

/** Runs the bundled `tianji` as its own process with the config home `home` (XDG_CONFIG_HOME). */
export function runCli(
  bundle: string,
  args: string[],
  opts: { stdin?: string; home: string; env?: Record<string, string> },
): Promise<RunResult> {
  return startCli(bundle, args, opts).done;
}

/** Starts the bundled `tianji`; its output can be read while it runs. */
export function startCli(
  bundle: string,
  args: string[],
  opts: { stdin?: string; home: string; env?: Record<string, string> },
): RunningCli {
  const child = spawn(process.execPath, [bundle, ...args], {
    env: { PATH: process.env.PATH, XDG_CONFIG_HOME: opts.home, TZ: 'UTC', ...opts.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const watchers = new Set<() => void>();
  const seen = () => {
    for (const w of watchers) w();
  };
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    seen();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    seen();
  });
  const done = new Promise<RunResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
  child.stdin.end(opts.stdin ?? '');
  const waitFor = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const m = pattern.exec(stdout) ?? pattern.exec(stderr);
        if (m) {
          watchers.delete(check);
          resolve(m);
        }
      };
      watchers.add(check);
      check();
      void done.then((r) => {
        if (watchers.delete(check)) reject(new Error(`exited ${r.code} before ${pattern}:\n${r.stdout}${r.stderr}`));
      });
    });
  return { waitFor, done };
}

export async function startHarness(
  dialect: Dialect = 'sqlite',
  env: Record<string, string> = {},
  onRoute?: BuildOptions['onRoute'],
): Promise<CliHarness> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tianji-cli-'));
  const bundle = await bundleCli(dir);
  const routes = new Set<string>();
  const t = await getTestInstance(dialect, env, {
    onRoute: (route) => {
      for (const m of [route.method].flat()) routes.add(`${m} ${route.url}`);
      onRoute?.(route);
    },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const server = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  let homes = 0;
  const defaultHome = path.join(dir, 'home');
  const home = () => path.join(dir, `home-${++homes}`);

  const run = (args: string[], opts: { stdin?: string; home?: string; env?: Record<string, string> } = {}) =>
    runCli(bundle, args, { stdin: opts.stdin, home: opts.home ?? defaultHome, env: opts.env });

  return {
    t,
    server,
    routes,
    home,
    run,
    start: (args, opts = {}) => startCli(bundle, args, { home: opts.home ?? defaultHome, env: opts.env }),
    close: async () => {
      await t.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
