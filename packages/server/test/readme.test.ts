import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeSettings } from '../src/config.js';

const read = (file: string) => fs.readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8');
const readmes = { 'README.md': read('README.md'), 'README.en.md': read('README.en.md') };

describe('the front door: README.md (Chinese) and README.en.md', () => {
  it('the settings page documents every setting the service reads, with its default, and each README links it', () => {
    const settings = read('docs/guide/configuration.md').split('\n');
    for (const s of describeSettings()) {
      const row = settings.find((l) => l.startsWith(`| \`${s.name}\` |`));
      expect(row, `docs/guide/configuration.md lacks ${s.name}`).toBeDefined();
      if (s.default) expect(row).toContain(`\`${s.default}\``);
    }
    for (const [file, text] of Object.entries(readmes)) expect(text, file).toContain('](docs/guide/configuration.md)');
  });

  it.each(Object.entries(readmes))('%s shows the two commands a new user needs and what npm test needs', (_, text) => {
    expect(text).toContain('npm install && npm start');
    expect(text).toContain('npm test');
    for (const need of ['TEST_DATABASE_URL', 'TEST_REDIS_URL', '/usr/bin/chromium']) expect(text).toContain(need);
  });

  it('each README links the other and stays under 200 lines', () => {
    expect(readmes['README.md']).toContain('](README.en.md)');
    expect(readmes['README.en.md']).toContain('](README.md)');
    for (const [file, text] of Object.entries(readmes)) expect(text.split('\n').length, file).toBeLessThan(200);
  });

  it('the Chinese README comes first: its headings are Chinese', () => {
    const headings = readmes['README.md'].split('\n').filter((l) => /^#{1,3} /.test(l));
    for (const h of headings) expect(h).toMatch(/^#+ \p{Script=Han}/u);
  });
});
