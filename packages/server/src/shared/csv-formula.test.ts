import { describe, expect, it } from 'vitest';
import { neutraliseFormula, restoreFormula } from './csv-formula.js';

describe('CSV formula neutralisation', () => {
  it.each([
    ['=1+2', "'=1+2"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['  =HYPERLINK("http://x")', '\'  =HYPERLINK("http://x")'],
    ['\t=1', "'\t=1"],
    ['\r=1', "'\r'=1"],
    ['\n=1', "'\n'=1"],
    ['note; =cmd|" /C calc"!A0', 'note;\' =cmd|" /C calc"!A0'],
    ['a;b;@x', "a;b;'@x"],
    ['line one\n=2*3', "line one\n'=2*3"],
    ["'=1", "''=1"],
  ])('%j is neutralised as %j', (raw, escaped) => {
    expect(neutraliseFormula(raw)).toBe(escaped);
  });

  it.each(['plain', 'a = b', 'email@example.com', '1-2', "it's", '', 'a;b', '  text'])('%j is left alone', (raw) => {
    expect(neutraliseFormula(raw)).toBe(raw);
  });

  it('restoring undoes neutralising, for cells that already held quotes too', () => {
    const cells = [
      '=1',
      "'=1",
      "''=1",
      "' =1",
      " '=1",
      'a;=b',
      "a;'=b",
      '\n\n=x',
      'x\r\n@y',
      'safe',
      "'safe",
      ";'",
      "'",
    ];
    for (const c of cells) expect([c, restoreFormula(neutraliseFormula(c))]).toEqual([c, c]);
  });

  it('on any mix of risky characters: no segment starts a formula, and restoring gives the cell back', () => {
    const alphabet = ['=', '+', '-', '@', ' ', '\t', '\r', '\n', ';', "'", 'a'];
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % alphabet.length;
    for (let n = 0; n < 3000; n++) {
      const cell = Array.from({ length: 1 + (n % 9) }, () => alphabet[next()]).join('');
      const out = neutraliseFormula(cell);
      for (const segment of out.split(/[;\r\n]/))
        expect([cell, segment]).not.toEqual([cell, expect.stringMatching(/^[\s]*[=+\-@]/)]);
      expect([cell, restoreFormula(out)]).toEqual([cell, cell]);
    }
  });
});
