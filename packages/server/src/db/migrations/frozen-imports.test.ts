import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, it } from 'vitest';
import { MIGRATION_NAMES } from '../migrate.js';

/**
 * A migration must run on an upgrade today as it did the day it shipped, so it imports nothing that changes with the
 * features: no module of db/migrations/ (a migration or a helper beside it) imports a module outside src/db/ or a
 * workspace package. Packages from node_modules and data files (JSON) are fine. A helper a migration needs is copied
 * into frozen-helpers.ts.
 */

const DB = fileURLToPath(new URL('../', import.meta.url));
const MIGRATIONS = fileURLToPath(new URL('./', import.meta.url));

const migrationFiles = () =>
  fs
    .readdirSync(MIGRATIONS)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'))
    .map((f) => path.join(MIGRATIONS, f));

/** Every import of `file` that is not allowed, as `file → specifier`. */
function outsideImports(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
  const offending = importedFiles
    .map((i) => i.fileName)
    .filter((spec) => {
      if (!spec.startsWith('.')) return spec.startsWith('@tianji/') || spec.startsWith('#'); // workspace code
      if (spec.endsWith('.json')) return false; // a data file
      return !path.resolve(path.dirname(file), spec).startsWith(DB);
    });
  return offending.map((spec) => `${path.basename(file)} → ${spec}`);
}

it('checks every migration the server runs', () => {
  const scanned = migrationFiles().map((f) => path.basename(f, '.ts'));
  expect(MIGRATION_NAMES.filter((name) => !scanned.includes(name))).toEqual([]);
});

it('no migration, nor a helper beside it, imports code outside db/', () => {
  expect(migrationFiles().flatMap(outsideImports)).toEqual([]);
});
