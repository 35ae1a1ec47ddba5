/**
 * Runs the server as a child process with the allocator settings the container image sets (see the Dockerfile), so
 * that `npm start` keeps the same memory: glibc reads MALLOC_MMAP_THRESHOLD_ and MALLOC_ARENA_MAX when a process starts, before any of
 * its code runs, so no setting inside the server could apply it. The child's signals and exit are this process's:
 * SIGTERM, SIGINT and SIGHUP are passed on, and its exit code (or the signal that ended it) becomes this one's.
 */
import { spawn } from 'node:child_process';

/**
 * glibc keeps freed buffers of up to 32 MB in its heaps once it has raised its mmap threshold; fixed at 128 KiB, the
 * pixel buffers and PNG bytes of the image routes go back to the system when freed (25–45 MB less after a load).
 * glibc also gives threads heaps of their own (up to 8 per core), each keeping what was freed in it; the server's
 * drawing, password and libuv threads share two (bench:memory, five runs each: 454–493 MB after every route against
 * 471–533, peaks 527–536 MB against 536–592).
 */
export const ALLOCATOR_ENV = { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_ARENA_MAX: '2' };

/** The compiled server, from the repository's root: what `npm start` runs, and the container image's CMD. */
export const SERVER_ENTRY = 'packages/server/dist/server.js';

const FORWARDED = ['SIGTERM', 'SIGINT', 'SIGHUP'];

/** Starts `node <entry> [...args]` (no node flags) with ALLOCATOR_ENV under the operator's own values, and follows it. */
export function runServer(entry, args = []) {
  const child = spawn(process.execPath, [entry, ...args], {
    env: { ...ALLOCATOR_ENV, ...process.env },
    stdio: 'inherit',
  });
  const forward = (signal) => child.kill(signal);
  for (const signal of FORWARDED) process.on(signal, forward);
  child.on('error', (err) => {
    console.error(`tianji: could not start the server: ${err.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    for (const s of FORWARDED) process.off(s, forward);
    // Ended by a signal: end this process by the same one, so that its supervisor sees what happened.
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
  return child;
}
