/**
 * Worker-thread entry of the password pool (password-pool.ts): each thread configures zxcvbn once with the
 * dictionaries compiled for the whole process (shared memory, password-words-worker.ts), then scores one password
 * per task. Runs only inside piscina workers, never on the server's event loop.
 */
import os from 'node:os';
import { workerData } from 'piscina';
import { checkPassword, configureZxcvbn, type PasswordStrength } from './password-strength.js';
import type { SharedWordIndex } from './password-word-index.js';

/** What password-pool.ts tells each thread of a lane. */
export interface PasswordWorkerData {
  /** Scheduling niceness of this thread: 0 leaves it as the process's, 19 runs it only when nothing else wants a CPU. */
  niceness: number;
  /** The dictionaries, compiled once for every thread of the process. */
  words: SharedWordIndex;
}

const { niceness, words } = workerData as PasswordWorkerData;
// Linux keeps a niceness per thread, and setpriority(pid 0) sets the calling thread's; elsewhere it would set the
// whole server's, so it is left alone there. Raising one's own niceness needs no privilege.
if (niceness && process.platform === 'linux') os.setPriority(niceness);
configureZxcvbn(words);

export default function scorePassword(password: string): PasswordStrength {
  return checkPassword(password);
}
