import { pino } from 'pino';

/** Log lines held in memory while standard output does not take them; beyond this, new lines are dropped. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** At exit, the longest wait for a stalled standard output to take the last lines. */
const EXIT_FLUSH_LIMIT_MS = 1_000;

/**
 * Where the server writes its log: standard output, asynchronously, in a way that can never hold the process.
 *
 * pino's default destination retries a write that the pipe refuses (EAGAIN: the reader is alive but no longer
 * reading) without end: while running, its buffer grows without bound, and at exit its synchronous final flush
 * sleeps and retries in a loop (Atomics.wait, a futex), so a process whose stdout nobody drains never exits.
 * That was the reported hang: instances started by a test script with piped stdout, signalled with SIGTERM,
 * still alive 45 minutes later with the main thread in a futex; the 10 s `process.exit` fallback ran into the
 * same flush. Here the buffer is bounded and the final flush gives up after EXIT_FLUSH_LIMIT_MS.
 */
export function logDestination(fd = 1) {
  let giveUpAt = Number.POSITIVE_INFINITY;
  const stream = pino.destination({ dest: fd, sync: false, maxLength: MAX_BUFFERED_BYTES, retryEAGAIN: () => Date.now() < giveUpAt });
  // The reader is gone (EPIPE) or stalled past the deadline: there is nowhere else to put log lines.
  stream.on('error', () => undefined);
  // Before pino's own exit hook (which would retry forever): flush within the limit, then let go of the rest.
  process.prependListener('exit', () => {
    giveUpAt = Date.now() + EXIT_FLUSH_LIMIT_MS;
    try {
      stream.flushSync();
    } catch {
      // Stalled past the deadline or mid-write: exiting matters more than the last lines.
    }
    stream.destroy();
  });
  return stream;
}
