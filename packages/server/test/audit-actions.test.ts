import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS } from '../src/admin/audit/actions.js';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const PREFIXES = [...new Set(Object.keys(AUDIT_ACTIONS).map((a) => a.split('.')[0]))];

/** Every `'<feature>.<verb>'` string literal of the server's sources, with the feature one the audit log knows. */
function actionLiterals(): Map<string, string> {
  const found = new Map<string, string>();
  const re = new RegExp(`'((?:${PREFIXES.join('|')})\\.[a-z][a-z-]*)'`, 'g');
  for (const e of fs.readdirSync(SRC, { recursive: true, withFileTypes: true })) {
    if (!e.isFile() || !e.name.endsWith('.ts') || e.name.endsWith('.test.ts')) continue;
    const file = path.join(e.parentPath, e.name);
    if (file.endsWith(path.join('audit', 'actions.ts'))) continue;
    for (const m of fs.readFileSync(file, 'utf8').matchAll(re)) found.set(m[1], path.relative(SRC, file));
  }
  return found;
}

describe('audit actions', () => {
  it('every action the server records has a Chinese and an English name for the clients', () => {
    const literals = actionLiterals();
    expect(literals.size).toBeGreaterThan(30);
    const unnamed = [...literals].filter(([a]) => !Object.hasOwn(AUDIT_ACTIONS, a)).map(([a, f]) => `${a} (${f})`);
    expect(unnamed).toEqual([]);
  });
});
