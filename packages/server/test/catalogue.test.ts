import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../src/catalogue/index.js';
import { PERMISSION_POINTS } from '../src/admin/permissions/points.js';
import { MENU_TREE } from '../src/admin/seed.js';
import { describeEachDb, getTestInstance } from './helpers.js';
import { adminCall } from './admin-fixtures.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const HOME = 'packages/server/src/catalogue/index.ts';

/** Source files (not tests, not generated code): where a fact written twice would drift. */
function sources(): string[] {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'packages', 'apps'], {
    cwd: ROOT,
    encoding: 'utf8',
  }).split('\n');
  return files.filter(
    (f) =>
      /\.(ts|vue|mjs)$/.test(f) &&
      !/(^|\/)(test|generated|scripts)\//.test(f) &&
      !/\.test\.ts$/.test(f) &&
      fs.existsSync(path.join(ROOT, f)),
  );
}

describe('one catalogue', () => {
  it('no menu code of the catalogue is written as a literal anywhere else in the sources', () => {
    // Leaf codes as quoted literals ('system:user', "monitor:api", `content:poems`), and a directory's code used as a
    // hand-built prefix of its children ('content:' + name). A directory's bare code is an ordinary word
    // ('content', 'system'), so it is checked through its children only.
    const patterns = [
      ...CATALOGUE.filter((m) => m.code.includes(':')).map((m) => m.code),
      ...CATALOGUE.filter((m) => CATALOGUE.some((c) => c.parent === m.code && c.code.startsWith(`${m.code}:`))).map(
        (m) => `${m.code}:`,
      ),
    ];
    const offenders: string[] = [];
    for (const file of sources()) {
      if (file === HOME) continue;
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      for (const code of patterns) {
        const literal = code.endsWith(':') ? `['"\`]${code}` : `['"\`]${code}['"\`]`;
        if (new RegExp(literal).test(text)) offenders.push(`${file}: ${code}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('no permission point is defined twice (value and bits together)', () => {
    const offenders = sources().filter(
      (f) =>
        f !== 'packages/server/src/admin/permissions/points.ts' &&
        /value:\s*'SEARCH'[^}]*bits:\s*1\b/.test(fs.readFileSync(path.join(ROOT, f), 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  it('every menu has a unique code, a known parent, and a page or children', () => {
    const codes = new Set(CATALOGUE.map((m) => m.code));
    expect(codes.size).toBe(CATALOGUE.length);
    for (const m of CATALOGUE) {
      if (m.parent !== null) expect(codes.has(m.parent), m.code).toBe(true);
      const hasChildren = CATALOGUE.some((c) => c.parent === m.code);
      expect(Boolean(m.page) !== hasChildren, `${m.code}: a page or children, not both`).toBe(true);
    }
    expect(PERMISSION_POINTS.map((p) => p.bits)).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512]);
  });
});

describeEachDb('the catalogue drives the seed and the routes', (dialect) => {
  it('the seeded menus are the catalogue, and every menu with an API prefix guards the routes under it', async () => {
    const t = await getTestInstance(dialect);
    try {
      const admin = await adminCall(t.app);
      const flat = (nodes: Array<{ code: string; children?: unknown[] }>): string[] =>
        nodes.flatMap((n) => [n.code, ...flat((n.children ?? []) as typeof nodes)]);
      expect(flat(MENU_TREE).sort()).toEqual(CATALOGUE.map((m) => m.code).sort());
      expect(flat((await admin('GET', '/api/menus')).json().data).sort()).toEqual(CATALOGUE.map((m) => m.code).sort());
      const doc = t.app.swagger() as { paths: Record<string, Record<string, { 'x-permission'?: { menu?: string } }>> };
      // Under a menu's prefix, routes declare that menu — or another menu on purpose (force-logout lives under
      // /api/users but is DELETE on 在线会话). That a declared menu is in the catalogue is the type-check's: a route's
      // `auth.menu` is a MenuCode.
      for (const m of CATALOGUE.filter((c) => c.api)) {
        const ops = Object.entries(doc.paths)
          .filter(([p]) => p === m.api || p.startsWith(`${m.api}/`))
          .flatMap(([p, item]) => Object.values(item).map((op) => [p, op['x-permission']?.menu] as const));
        expect(ops.filter(([, menu]) => menu === m.code).length, m.code).toBeGreaterThan(0);
        for (const [p, menu] of ops) expect(menu, `${p} declares no menu`).toBeDefined();
      }
    } finally {
      await t.close();
    }
  });
});
