/**
 * `npm install` on the Node this runs on prints no EBADENGINE warning: every package the lockfile installs accepts
 * this Node, checked the way npm checks it (npm-install-checks: semver, prereleases included). Node 20 is the
 * oldest line we still install on; where a dependency's newest release dropped it, package.json pins or overrides
 * the last release that supports it (content-disposition, cookie, nopt, element-plus).
 */
import fs from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = new URL('../../../', import.meta.url);
const read = (file: string) => JSON.parse(fs.readFileSync(new URL(file, root), 'utf8'));

type Entry = { version?: string; engines?: { node?: unknown } | string[] };

describe('supported Node.js versions', () => {
  const lock = read('package-lock.json') as { packages: Record<string, Entry> };

  it(`every package in package-lock.json accepts the running Node (${process.version})`, () => {
    const refusing = Object.entries(lock.packages)
      .filter(([, e]) => {
        const wanted = !Array.isArray(e.engines) ? e.engines?.node : undefined;
        return typeof wanted === 'string' && !semver.satisfies(process.version, wanted, { includePrerelease: true });
      })
      .map(
        ([name, e]) =>
          `${name.replace(/^.*node_modules\//, '')}@${e.version} wants node ${(e.engines as { node: string }).node}`,
      );
    expect(refusing).toEqual([]);
  });

  it('our engines field admits every maintained LTS line and the Node this runs on', () => {
    const engines = (read('package.json') as { engines: { node: string } }).engines.node;
    for (const v of ['20.19.0', '22.12.0', '24.0.0', process.version])
      expect(semver.satisfies(v, engines), v).toBe(true);
  });
});
