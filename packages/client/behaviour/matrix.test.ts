/**
 * The scenario × client matrix of the documentation (docs/guide/clients.md) is generated from the scenario table:
 * this test fails when they differ.
 * `TIANJI_UPDATE_README=1 npx vitest run packages/client/behaviour/matrix.test.ts` rewrites the block.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLIENT_KINDS } from './driver.js';
import { matrixMarkdown, SCENARIOS } from './scenarios.js';

const README = new URL('../../../docs/guide/clients.md', import.meta.url);
const START = '<!-- behaviour-matrix:start (generated from packages/client/behaviour/scenarios.ts) -->';
const END = '<!-- behaviour-matrix:end -->';

describe('behaviour matrix', () => {
  it('the matrix in docs/guide/clients.md is the scenario table', () => {
    const readme = fs.readFileSync(README, 'utf8');
    const block = `${START}\n${matrixMarkdown()}\n${END}`;
    const at = readme.indexOf(START);
    const end = readme.indexOf(END);
    if (process.env.TIANJI_UPDATE_README === '1' && at >= 0 && end > at) {
      fs.writeFileSync(README, readme.slice(0, at) + block + readme.slice(end + END.length));
      return;
    }
    expect(at, 'docs/guide/clients.md lacks the behaviour matrix markers').toBeGreaterThanOrEqual(0);
    expect(readme.slice(at, end + END.length)).toBe(block);
  });

  it('every scenario has a unique id, both titles and a coverage for every client', () => {
    expect(new Set(SCENARIOS.map((s) => s.id)).size).toBe(SCENARIOS.length);
    for (const s of SCENARIOS) {
      expect(s.title.zh).toMatch(/[\u4e00-\u9fff]/);
      expect(s.title.en).toMatch(/^[a-z]/);
      for (const k of CLIENT_KINDS) expect(s.clients[k], `${s.id} × ${k}`).toBeDefined();
    }
  });
});
