import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Helpers the migrations once imported from feature code, copied here as they were when each migration was written.
 * A migration must do on an upgrade today what it did on the day it shipped, whatever the live code has become since;
 * so nothing here may ever change. A later migration that needs a different version gets a new function (or a file of
 * its own) and leaves these alone. Migrations import nothing outside db/ (test/import-boundaries.test.ts checks).
 *
 * Where the live helper is still meant to compute the same thing (a stored key, a stored search text),
 * frozen-helpers.test.ts compares the two, so a change to the live one is noticed and gets a migration of its own.
 */

/**
 * Reads and parses a JSON file under the repository's data/ folder; undefined when the file does not exist.
 * For migrations 0013, 0014 and 0020: `readDataJson` of src/data-files.ts as of a28e29a87793 (unchanged when each was
 * written). This file sits at packages/server/src/db/migrations/ (or dist/db/migrations/), five levels below the
 * repository root either way. Never change it.
 */
export function readDataJson<T = unknown>(relative: string): T | undefined {
  const file = fileURLToPath(new URL(`../../../../../data/${relative}`, import.meta.url));
  if (!fs.existsSync(file)) return undefined;
  return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
}

/**
 * The form a username is compared in: NFKC, lower case, NFKC again. For migration 0005 (and, through roleNameKey,
 * 0012): `usernameKey` of src/admin/shared/username-key.ts as of 4eb1bfd5477f, the commit of 0005. Never change it.
 */
export function usernameKey(username: string): string {
  return username.normalize('NFKC').toLowerCase().normalize('NFKC');
}

/**
 * The form role names are compared in: as usernames, without whitespace or invisible format characters. For
 * migration 0012: `roleNameKey` of src/admin/roles/name-key.ts as of 8ff18b51d409, the commit of 0012. Never change it.
 */
export function roleNameKey(name: string): string {
  return usernameKey(name).replace(/[\s\p{Cf}]/gu, '');
}

/**
 * Text with punctuation, spaces and case removed: two entries that differ only there are duplicates. For migration
 * 0014: `normaliseText` of src/content/content-lint.ts as of 1b17d8a070c5, the commit of 0014. Never change it.
 * (The live one has since also folded variant characters, 隣 → 邻: 0014 deliberately does not.)
 */
export function normaliseText(s: string): string {
  return s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}\s]/gu, '');
}

/**
 * The fields of a content row that its search text is made of, per library. For migrations 0013, 0014 and 0021
 * (holiday-corrections.ts) and 0020: `searchFields` of src/content/libraries.ts, the same at 89487061edbb (0013),
 * 1b17d8a070c5 (0014), 78ae3bacc168 (0020) and 4a445d206c10 (0021). Never change it.
 */
export const SEARCH_FIELDS = {
  hitokoto: ['content', 'from', 'from_who'],
  poems: ['title', 'author', 'lines'],
  holidays: ['year'],
} as const satisfies Record<string, readonly string[]>;

/**
 * A content row's search text: its search fields' values (array elements one by one), one a line, in lower case.
 * For the same migrations: `searchTextOf` of src/content/repository.ts as of a28e29a87793 (unchanged when each was
 * written), taking the library's fields instead of the library. Never change it.
 */
export function searchText(fields: readonly string[], data: Record<string, unknown>): string {
  return fields
    .map((f) => data[f])
    .flatMap((v) => (Array.isArray(v) ? v : [v]))
    .filter((v) => v !== null && v !== undefined)
    .join('\n')
    .toLowerCase();
}
