import fs from 'node:fs';
import net from 'node:net';
import { pino } from 'pino';

/** Log bytes held in memory while standard output does not take them; beyond this, new lines are dropped. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

export interface LogDestination {
  write(line: string): void;
  /** Resolves once buffered lines are written, or after `ms` if standard output is not taking them. */
  flush(ms: number): Promise<void>;
}

/**
 * Where the server writes its log: standard output, in a way that can never hold the process.
 *
 * The reported hang (instances started by a test script with piped stdout, signalled with SIGTERM, alive 45
 * minutes later with the main thread in a futex) was pino's default destination on a pipe nobody drained: it
 * writes with fs.write on a libuv pool thread, and on a blocking pipe that write waits in the kernel for ever;
 * process.exit() then joins the pool's threads (libuv's exit-time cleanup), and so waits for ever too, which
 * also defeated the 10 s exit fallback. A pipe or socket is therefore written as a non-blocking stream on the
 * main thread, with a bounded buffer: nothing can get stuck in a write, and exit does not wait for the reader.
 * Files and terminals do not stall that way and keep pino's own destination.
 */
export function logDestination(fd = 1): LogDestination {
  const stat = fs.fstatSync(fd);
  if (!stat.isFIFO() && !stat.isSocket()) {
    const file = pino.destination({ dest: fd, sync: false });
    return {
      write: (line) => void file.write(line),
      flush: (ms) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ms);
          file.flush(() => {
            clearTimeout(timer);
            resolve();
          });
        }),
    };
  }
  // libuv opens the descriptor in non-blocking mode: a stalled reader makes lines queue here, never a thread wait.
  const socket = new net.Socket({ fd, readable: false, writable: true });
  // The reader is gone (EPIPE): there is nowhere else to put log lines.
  socket.on('error', () => undefined);
  return {
    write(line) {
      if (!socket.destroyed && socket.writableLength < MAX_BUFFERED_BYTES) socket.write(line);
    },
    flush: (ms) =>
      new Promise<void>((resolve) => {
        if (socket.destroyed || socket.writableLength === 0) return resolve();
        const timer = setTimeout(resolve, ms);
        socket.once('drain', () => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}
