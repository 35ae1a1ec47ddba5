/**
 * Entry of the short-lived thread that compiles zxcvbn's word lists into the shared trie for the password pool
 * (password-pool.ts): its one task loads the lists, builds the index and returns it (shared memory, not a copy), then
 * the thread ends, so that neither the server's main thread nor any scoring thread keeps the lists (~40 MB of heap).
 */
import { compiledWords } from './password-strength.js';
import type { SharedWordIndex } from './password-word-index.js';

export default function compile(): SharedWordIndex {
  return compiledWords();
}
