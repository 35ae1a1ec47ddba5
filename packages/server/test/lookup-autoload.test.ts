import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { groupRouteFiles } from '../src/public/index.js';
import { LOOKUP_GROUPS } from '../src/catalogue/lookup-groups.js';
import { useTestApp } from './helpers.js';

// A public endpoint is a pure module, its test and a `*-route.ts` file in its group's folder: no list to edit.
describe('public routes are loaded from the group folders', () => {
  let doc: { paths: Record<string, { get?: { tags?: string[] } }>; tags: Array<{ name: string }> };
  const t = useTestApp('sqlite');
  beforeAll(async () => {
    doc = (await t.app.inject('/openapi.json')).json();
  });

  it('every route file of a folder is served, tagged with its folder’s group', async () => {
    let seen = 0;
    for (const { group, files } of await groupRouteFiles()) {
      expect(files.length, `public/groups/${group}/ has no route file`).toBeGreaterThan(0);
      for (const file of files) {
        const paths = [...fs.readFileSync(file, 'utf8').matchAll(/\bpath: '(\/[^']+)'/g)].map((m) => m[1]);
        expect(paths.length, `${file.pathname} declares no path`).toBeGreaterThan(0);
        for (const p of paths) {
          expect(doc.paths[`/api${p}`]?.get?.tags, `/api${p} (${file.pathname})`).toEqual([LOOKUP_GROUPS[group].name]);
          seen++;
        }
      }
    }
    expect(seen).toBeGreaterThanOrEqual(30);
  });

  it('the groups keep their order in the document, ahead of the admin API', () => {
    const names = doc.tags.map((tag) => tag.name);
    expect(names.slice(0, 5)).toEqual(Object.values(LOOKUP_GROUPS).map((g) => g.name));
  });
});
