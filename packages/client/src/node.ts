/**
 * Node entry: everything from the main entry plus a refresh-token storage in a file. Kept apart so browser
 * bundles never see `node:fs`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { TokenStorage } from './storage.js';

export * from './index.js';

/**
 * Keeps the refresh token in a file (mode 0600), so a CLI or service stays signed in across restarts.
 * Writes go to a temporary file renamed over the old one, so a crash never leaves half a token.
 * One process at a time per file: refreshes are single-flight within a process, not across processes.
 */
export function fileStorage(file: string): TokenStorage {
  return {
    async load() {
      try {
        const t = (await fs.promises.readFile(file, 'utf8')).trim();
        return t || null;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw e;
      }
    },
    async save(token) {
      if (token === null) {
        await fs.promises.rm(file, { force: true });
        return;
      }
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      await fs.promises.writeFile(tmp, token, { mode: 0o600 });
      await fs.promises.rename(tmp, file);
    },
  };
}
