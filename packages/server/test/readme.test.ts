import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeSettings } from '../src/config.js';

describe('README', () => {
  const readme = fs.readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

  it('documents every setting the service reads, with its default', () => {
    for (const s of describeSettings()) {
      const row = readme.split('\n').find((l) => l.startsWith(`| \`${s.name}\` |`));
      expect(row, `README configuration table lacks ${s.name}`).toBeDefined();
      if (s.default) expect(row).toContain(`\`${s.default}\``);
    }
  });

  it('shows the two commands a new user needs', () => {
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm test');
  });
});
