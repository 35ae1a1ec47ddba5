/**
 * The documentation's command reference and settings page are written from the code (scripts/docs-reference.ts):
 * a command, option, default or setting changed without `npm run docs:reference` fails here.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatedPages } from '../../../scripts/docs-reference.js';

describe('generated documentation pages', () => {
  it.each(Object.entries(generatedPages()))('%s is up to date (npm run docs:reference)', (file, text) => {
    expect(fs.readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8')).toBe(text);
  });

  it('documents every command the CLI has', () => {
    const page = generatedPages()['docs/guide/cli-reference.md'];
    for (const cmd of ['tianji login', 'tianji users reset-password', 'tianji roles grant', 'tianji sessions end'])
      expect(page).toContain(`\`${cmd}`);
  });
});
