/**
 * Every page of the documentation site is reachable from its sidebar: a page added under docs/ without a sidebar entry
 * is built but found by no reader (only by search). Read from docs/.vitepress/config.mts as text, so the test needs no
 * VitePress build.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { filesUnder } from '../../../test/builds.js';

const DOCS = path.join(fileURLToPath(new URL('../../../', import.meta.url)), 'docs');

describe('the documentation sidebar', () => {
  it('lists every page of the site', () => {
    const config = fs.readFileSync(path.join(DOCS, '.vitepress/config.mts'), 'utf8');
    const sidebar = config.slice(config.indexOf('sidebar:'), config.indexOf('search:'));
    const links = new Set([...sidebar.matchAll(/link: '([^']+)'/g)].map((m) => m[1]));
    const pages = filesUnder(DOCS, (f) => f.endsWith('.md') && !f.includes(`${path.sep}.vitepress${path.sep}`))
      .map((f) => `/${path.relative(DOCS, f).split(path.sep).join('/')}`)
      .filter((p) => p !== '/index.md' && !p.startsWith('/screenshots/') && p !== '/README.md')
      .map((p) => p.replace(/(^|\/)index\.md$/, '$1').replace(/\.md$/, ''));
    expect(pages.length).toBeGreaterThan(10);
    expect(pages.filter((p) => !links.has(p))).toEqual([]);
  });
});
