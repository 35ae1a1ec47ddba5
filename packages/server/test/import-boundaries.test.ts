import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The house rules of the server's layout, checked over the import statements themselves. The rooms of
 * packages/server/src (docs/guide/contributing.md draws them):
 *   shared/, catalogue/      utilities and the built-in facts (menus, lookup groups, content libraries): the floor
 *   http/                    what every request goes through (errors, CORS, headers, validation, health)
 *   engines/<engine>/        computations both areas use (password strength, QR, IP places, postcodes, calendar…)
 *   db/, db/migrations/      the database; a migration is frozen: it imports only db/
 *   public/platform/, public/keys/, public/drop-in/, public/shared/, public/groups/<group>/   the public API
 *   admin/, content/, monitor/, web/, cli/   the admin API, the content libraries, metrics, web apps and docs, CLI
 * Rules (each arrow below is forbidden):
 * - a group → another group; the platform, the keys or public/shared → a group; the platform → public/shared;
 * - admin → the public API, except public/keys/ (the admin issues the keys whose format the gate checks);
 * - engines → admin, the public API, content, http, web, monitor, db (an engine is plain computation);
 * - shared/, catalogue/ → any other room but src/'s own files (errors.ts, config.ts…); http/ → admin, the public API, engines, content, web, monitor;
 * - db/ → admin, the public API, engines, content, http, web, monitor; db/migrations/ → anything outside db/;
 * - content/ and monitor/ → admin;
 * - anybody → a route file (`*-route.ts`): shared schemas and parameters live in modules of their own;
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
/**
 * The room of a server file: `group:daily` for public/groups/daily/x.ts, `public/keys`, `engines/ip`, `db/migrations`,
 * `admin`, `top` for a file directly in src/ (app.ts, config.ts, errors.ts…); undefined outside the server.
 */
export function roomOf(file: string): string | undefined {
  if (!file.startsWith(SERVER)) return undefined;
  const parts = file.slice(SERVER.length).split('/');
  if (parts.length === 1) return 'top';
  if (parts[0] === 'public' && parts[1] === 'groups') return `group:${parts[2]}`;
  if (parts[0] === 'public') return parts.length === 2 ? 'public' : `public/${parts[1]}`;
  if (parts[0] === 'engines') return `engines/${parts[1]}`;
  if (parts[0] === 'db' && parts[1] === 'migrations') return 'db/migrations';
  return parts[0];
}

const isPublic = (r: string) => r === 'public' || r.startsWith('public/') || r.startsWith('group:');
const isEngine = (r: string) => r.startsWith('engines/');

/** Why an arrow from room `a` to room `b` breaks the layout, or undefined when it may be drawn. */
function forbidden(a: string, b: string): string | undefined {
  if (a === b) return undefined;
  const group = b.startsWith('group:');
  if (a.startsWith('group:') && group) return `lookup group ${a.slice(6)} reaches into ${b.slice(6)}`;
  if (
    ['public', 'public/platform', 'public/keys', 'public/shared', 'public/drop-in'].includes(a) &&
    group &&
    a !== 'public'
  )
    return `${a} reaches into a group`;
  if (a === 'public/platform' && b === 'public/shared') return 'the platform reaches into what groups share';
  if (a === 'admin' && isPublic(b) && b !== 'public/keys') return `admin reaches into the public API (${b})`;
  if (isEngine(a) && !isEngine(b) && !['top', 'shared', 'catalogue'].includes(b)) return `${a} reaches into ${b}`;
  if ((a === 'shared' || a === 'catalogue') && !['shared', 'catalogue', 'top'].includes(b))
    return `${a} reaches into ${b}`;
  if (a === 'http' && (b === 'admin' || isPublic(b) || isEngine(b) || ['content', 'web', 'monitor'].includes(b)))
    return `http reaches into ${b}`;
  if (a === 'db' && (b === 'admin' || isPublic(b) || isEngine(b) || ['content', 'http', 'web', 'monitor'].includes(b)))
    return `db reaches into ${b}`;
  if (a === 'db/migrations' && b !== 'db') return `a migration imports live code (${b}): copy it into db/migrations/`;
  if ((a === 'content' || a === 'monitor') && b === 'admin') return `${a} reaches into admin`;
  return undefined;
}

/** Arrows that break the layout, as `from → to (why)` lines. */
export function boundaryViolations(graph: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const [a, b] = [roomOf(from), roomOf(to)];
      // A migration's test may hold its frozen copies against the live code they were copied from.
      const test = from.endsWith('.test.ts') && a === 'db/migrations';
      const why = a && b && !test ? forbidden(a, b) : undefined;
      if (why) out.push(`${from} → ${to} (${why})`);
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

  it('every arrow between the server’s rooms follows the layer rules', () => {
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
      ['packages/server/src/public/groups/random/a.ts', ['packages/server/src/public/groups/toolbox/b.ts']],
      ['packages/server/src/public/groups/toolbox/b.ts', ['packages/server/src/public/shared/c.ts']],
      ['packages/server/src/content/d.ts', ['packages/server/src/admin/shared/e.ts']],
      ['packages/server/src/admin/auth/f.ts', ['packages/server/src/public/groups/toolbox/g.ts']],
      ['packages/server/src/admin/api-keys/h.ts', ['packages/server/src/public/keys/secret.ts']],
      ['packages/server/src/public/platform/i.ts', ['packages/server/src/public/groups/daily/j.ts']],
      [
        'packages/server/src/engines/ip/k.ts',
        ['packages/server/src/http/envelope.ts', 'packages/server/src/errors.ts'],
      ],
      ['packages/server/src/db/migrations/0005-x.ts', ['packages/server/src/admin/shared/username-key.ts']],
      ['packages/server/src/db/migrations/0006-y.ts', ['packages/server/src/db/index.ts']],
      ['packages/server/src/catalogue/index.ts', ['packages/server/src/content/store.ts']],
      ['bench/x.ts', ['bench/y.ts']],
      ['bench/y.ts', ['bench/x.ts']],
    ]);
    expect(boundaryViolations(bad).map((v) => v.replace(/^\S+ → \S+ \((.*)\)$/, '$1'))).toEqual([
      'lookup group random reaches into toolbox',
      'content reaches into admin',
      'admin reaches into the public API (group:toolbox)',
      'public/platform reaches into a group',
      'engines/ip reaches into http',
      'a migration imports live code (admin): copy it into db/migrations/',
      'catalogue reaches into content',
    ]);
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
