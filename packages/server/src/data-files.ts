import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The repository's data/ folder (shipped data sets). This file sits at packages/server/src/ (or dist/), three levels
 * below the repository root either way.
 */
export const DATA_DIR = fileURLToPath(new URL('../../../data/', import.meta.url));

export function dataFilePath(relative: string): string {
  return DATA_DIR + relative;
}

/** Reads and parses a JSON file under data/; undefined when the file does not exist. */
export function readDataJson<T = unknown>(relative: string): T | undefined {
  const file = dataFilePath(relative);
  if (!fs.existsSync(file)) return undefined;
  return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
}
