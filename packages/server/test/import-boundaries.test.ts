import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The house rules of the server's layout, checked over the import statements themselves:
 * - a lookup group (`lookup/<group>/`) depends on the platform and `lookup/shared/`, never on another group;
 *   `lookup/shared/` depends on no group;
 * - nobody imports a route file (`*-route.ts`): shared schemas and parameters live in modules of their own;
 * - `content/` and `monitor/` do not reach into `admin/` (what they share lives below both, in `shared/`);
 * - no import cycle anywhere in the server or the benchmarks (type-only imports included: they are arrows too);
 * - a web app (`apps/<app>/`) never imports another app's sources; what they share lives in `packages/web-core`,
 *   which imports no app.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const SRC = path.join(root, 'packages/server/src');
const SCANNED = [SRC, path.join(root, 'bench')];

function sourceFiles(dir: string, ext = /\.ts$/): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return ['node_modules', 'dist'].includes(e.name) ? [] : sourceFiles(full, ext);
    return ext.test(e.name) && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Module specifiers of the static imports, re-exports and dynamic imports of one file (comments ignored). */
export function specifiersOf(code: string): string[] {
  const text = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const found: string[] = [];
  for (const re of [
    /\b(?:import|export)\s[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ]) {
    for (const m of text.matchAll(re)) found.push(m[1]);
  }
  return found;
}

/** Path aliases of the web apps' build configs (vite.config.ts, tsconfig.json paths) that name another folder. */
const ALIASES: Record<string, string> = { '@admin/': 'apps/admin/src/', '@mobile/': 'apps/mobile/src/' };
/** Workspace packages of the web side, by name: the shared core, and the two apps (which no one may import). */
const WORKSPACES: Record<string, string> = {
  '@tianji/web-core': 'packages/web-core/src/index.ts',
  '@tianji/admin': 'apps/admin/package.json',
  '@tianji/mobile': 'apps/mobile/package.json',
};

/** The file a relative specifier names (`./x.js` is `./x.ts` in the sources), or undefined for packages. */
function resolve(from: string, spec: string): string | undefined {
  const alias = Object.keys(ALIASES).find((a) => spec.startsWith(a));
  if (!spec.startsWith('.') && !alias) return undefined;
  const target = alias
    ? path.join(root, ALIASES[alias], spec.slice(alias.length))
    : path.resolve(path.dirname(from), spec);
  for (const candidate of [target.replace(/\.js$/, '.ts'), target, `${target}.ts`, path.join(target, 'index.ts')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

const rel = (file: string) => path.relative(root, file).split(path.sep).join('/');

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of SCANNED.flatMap((d) => sourceFiles(d))) {
    const targets = specifiersOf(fs.readFileSync(file, 'utf8'))
      .map((s) => resolve(file, s))
      .filter((t): t is string => Boolean(t?.endsWith('.ts')));
    graph.set(rel(file), [...new Set(targets.map(rel))]);
  }
  return graph;
}

/** The web apps and their shared core, `.vue` files included: arrows to any file, relative or through an alias. */
function webGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const dirs = [
    ...fs.readdirSync(path.join(root, 'apps')).map((a) => path.join(root, 'apps', a)),
    path.join(root, 'packages/web-core'),
  ];
  for (const file of dirs.flatMap((d) => sourceFiles(d, /\.(ts|vue|mjs)$/))) {
    const targets = specifiersOf(fs.readFileSync(file, 'utf8')).map((s) => {
      const pkg = Object.keys(WORKSPACES).find((w) => s === w || s.startsWith(`${w}/`));
      if (pkg) return path.join(root, WORKSPACES[pkg]);
      const hit = resolve(file, s);
      // An alias that names no file is still an arrow into that folder.
      const alias = Object.keys(ALIASES).find((a) => s.startsWith(a));
      return hit ?? (alias ? path.join(root, ALIASES[alias], s.slice(alias.length)) : undefined);
    });
    graph.set(rel(file), [...new Set(targets.filter((t): t is string => Boolean(t)).map(rel))]);
  }
  return graph;
}

/** `admin` for apps/admin/…, `web-core` for packages/web-core/…, undefined elsewhere. */
const webUnitOf = (file: string) =>
  /^apps\/([^/]+)\//.exec(file)?.[1] ?? (file.startsWith('packages/web-core/') ? 'web-core' : undefined);

/** Arrows from one web app into another's sources, or from the shared core into an app. */
export function webViolations(graph: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [from, targets] of graph) {
    const a = webUnitOf(from);
    for (const to of targets) {
      const b = webUnitOf(to);
      if (!a || !b || a === b || b === 'web-core') continue;
      out.push(`${from} → ${to} (${a} reaches into ${b === 'admin' || b === 'mobile' ? `apps/${b}` : b})`);
    }
  }
  return out;
}

const SERVER = 'packages/server/src/';
/** `daily` for packages/server/src/lookup/daily/x.ts, `shared` for lookup/shared/, undefined outside a group. */
function lookupGroupOf(file: string): string | undefined {
  const m = file.startsWith(SERVER) ? /^lookup\/([^/]+)\//.exec(file.slice(SERVER.length)) : null;
  return m?.[1];
}
const topFolderOf = (file: string) => (file.startsWith(SERVER) ? file.slice(SERVER.length).split('/')[0] : undefined);

/** Arrows that break the layout, as `from → to` lines. */
export function boundaryViolations(graph: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const [a, b] = [lookupGroupOf(from), lookupGroupOf(to)];
      if (a && b && a !== b && b !== 'shared') out.push(`${from} → ${to} (lookup group ${a} reaches into ${b})`);
      const [fa, fb] = [topFolderOf(from), topFolderOf(to)];
      if ((fa === 'content' || fa === 'monitor') && fb === 'admin')
        out.push(`${from} → ${to} (${fa} reaches into admin)`);
      // Route files export routes; what two routes share (schemas, parameters) lives in a module of its own.
      if (to.endsWith('-route.ts')) out.push(`${from} → ${to} (imports a route file)`);
    }
  }
  return out;
}

/** Strongly connected components with more than one file (or a file importing itself): each is a cycle. */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || graph.get(v)?.includes(v)) cycles.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

describe('import boundaries', () => {
  const graph = importGraph();

  it('reads the imports of every source file', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('packages/server/src/app.ts')).toContain('packages/server/src/config.ts');
  });

  it('a lookup group imports only the platform and lookup/shared; content and monitor stay out of admin', () => {
    expect(boundaryViolations(graph)).toEqual([]);
  });

  it('a route file exports its routes only', () => {
    const extra = [...graph.keys()]
      .filter((f) => f.endsWith('-route.ts'))
      .filter((f) => /^export (?!default\b)/m.test(fs.readFileSync(path.join(root, f), 'utf8')));
    expect(extra).toEqual([]);
  });

  it('no import cycle in the server or the benchmarks', () => {
    expect(importCycles(graph).map((c) => c.join(' ⇄ '))).toEqual([]);
  });

  it('a web app imports nothing from another app; the shared web core imports no app', () => {
    const web = webGraph();
    expect(web.get('apps/mobile/src/session.ts')).toContain('packages/web-core/src/index.ts');
    expect(webViolations(web)).toEqual([]);
  });

  it('the checks see the arrows they forbid', () => {
    const bad = new Map([
      ['packages/server/src/lookup/random/a.ts', ['packages/server/src/lookup/toolbox/b.ts']],
      ['packages/server/src/lookup/toolbox/b.ts', ['packages/server/src/lookup/shared/c.ts']],
      ['packages/server/src/content/d.ts', ['packages/server/src/admin/shared/e.ts']],
      ['bench/x.ts', ['bench/y.ts']],
      ['bench/y.ts', ['bench/x.ts']],
    ]);
    expect(boundaryViolations(bad)).toHaveLength(2);
    expect(importCycles(bad)).toEqual([['bench/x.ts', 'bench/y.ts']]);
    const web = new Map([
      ['apps/mobile/src/pages/A.vue', ['apps/admin/src/lib/time.ts', 'packages/web-core/src/time.ts']],
      ['packages/web-core/src/b.ts', ['apps/admin/src/i18n/zh-CN.ts']],
      ['apps/admin/src/c.ts', ['apps/admin/src/d.ts']],
    ]);
    expect(webViolations(web)).toEqual([
      'apps/mobile/src/pages/A.vue → apps/admin/src/lib/time.ts (mobile reaches into apps/admin)',
      'packages/web-core/src/b.ts → apps/admin/src/i18n/zh-CN.ts (web-core reaches into apps/admin)',
    ]);
    expect(
      specifiersOf("import type {\n  A,\n} from './a.js';\nexport { b } from './b.js';\nawait import('./c.js');"),
    ).toEqual(['./a.js', './b.js', './c.js']);
  });
});
