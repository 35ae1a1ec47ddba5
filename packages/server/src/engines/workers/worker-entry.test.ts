import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

describe('workerEntry', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'worker-entry-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('starts a compiled thread in a process given V8 options (node --max-old-space-size=… dist/server.js)', () => {
    // A compiled worker next to a compiled caller, as in dist/.
    writeFileSync(
      path.join(dir, 'probe-worker.js'),
      "require('node:worker_threads').parentPort.postMessage('started');",
    );
    const entry = pathToFileURL(fileURLToPath(new URL('./worker-entry.ts', import.meta.url))).href;
    const caller = pathToFileURL(path.join(dir, 'caller.js')).href;
    const script = `
      import { Worker } from 'node:worker_threads';
      import { workerEntry } from ${JSON.stringify(entry)};
      const { filename, execArgv } = workerEntry(${JSON.stringify(caller)}, 'probe-worker');
      try {
        const w = new Worker(new URL(filename), { execArgv });
        w.once('message', (m) => { console.log(m); w.terminate(); });
      } catch (err) {
        console.log(err.code);
      }`;
    writeFileSync(path.join(dir, 'run.mjs'), script);
    const out = execFileSync(
      process.execPath,
      ['--max-old-space-size=200', '--import', 'tsx', path.join(dir, 'run.mjs')],
      { cwd: fileURLToPath(new URL('../../../', import.meta.url)), encoding: 'utf8' },
    );
    expect(out.trim()).toBe('started');
  });
});
